import { Module } from '@nestjs/common';
import { SharedModule } from '../shared/shared.module.js';
import { SendingRulesService } from './sending-rules.service.js';
import { SettingsController } from './settings.controller.js';
import { SettingsService } from './settings.service.js';

@Module({
  imports: [SharedModule],
  controllers: [SettingsController],
  providers: [SettingsService, SendingRulesService],
})
export class SettingsModule {}
