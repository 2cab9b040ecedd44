import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import type { ClientSettings, SendingRules } from '@smsq/dashboard-api';
import { SessionGuard } from '../auth/session.guard.js';
import { ActingClientId } from '../auth/signed-in.decorators.js';
import { SendingRulesBody } from './dto/sending-rules.body.js';
import { TimeZoneBody } from './dto/time-zone.body.js';
import { SendingRulesService } from './sending-rules.service.js';
import { SettingsService } from './settings.service.js';

/** The signed-in user's own client's settings. */
@Controller('api/settings')
@UseGuards(SessionGuard)
export class SettingsController {
  constructor(
    private readonly settings: SettingsService,
    private readonly sendingRules: SendingRulesService,
  ) {}

  @Get()
  show(@ActingClientId() clientId: number): Promise<ClientSettings> {
    return this.settings.settings(clientId);
  }

  @Put('time-zone')
  setTimeZone(@ActingClientId() clientId: number, @Body() body: TimeZoneBody): Promise<ClientSettings> {
    return this.settings.setTimeZone(clientId, body.timeZone);
  }

  @Get('sending')
  sending(@ActingClientId() clientId: number): Promise<SendingRules> {
    return this.sendingRules.rules(clientId);
  }

  @Put('sending')
  setSending(@ActingClientId() clientId: number, @Body() body: SendingRulesBody): Promise<SendingRules> {
    return this.sendingRules.update(clientId, body);
  }
}
