import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { ApiKeyOwner } from '../identity/api-keys.repository.js';
import { ApiKeyGuard } from '../identity/api-key.guard.js';
import { AuthenticatedClient } from '../identity/authenticated-client.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { PhonePairingService } from './phone-pairing.service.js';
import { parseRegisterPhone } from './register-phone-request.js';

/** Profile A: the gateway app, having scanned the API key, registers its phone and gets a worker token. */
@Controller('smsapi')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class PhoneRegistrationController {
  constructor(private readonly pairing: PhonePairingService) {}

  @Post('register-phone')
  @HttpCode(201)
  async register(@AuthenticatedClient() client: ApiKeyOwner, @Body() body: unknown) {
    this.pairing.requireOwnPhones();
    const request = parseRegisterPhone(body);
    const registered = await this.pairing.registerOwnPhone({ clientId: client.clientId, ...request });
    return { ok: true, phone_id: registered.phoneId, worker_token: registered.workerToken };
  }
}
