import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { SmppCredentialsController } from './smpp-credentials.controller.js';
import { SmppCredentialsMessagesController } from './smpp-credentials-messages.controller.js';
import { SmppCredentialsRepository } from './smpp-credentials.repository.js';
import { SmppCredentialsService } from './smpp-credentials.service.js';

/** SMPP credentials, kept beside API keys and worker tokens: the smpp service checks its binds here. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [SmppCredentialsController, SmppCredentialsMessagesController],
  providers: [SmppCredentialsRepository, SmppCredentialsService],
})
export class SmppCredentialsModule {}
