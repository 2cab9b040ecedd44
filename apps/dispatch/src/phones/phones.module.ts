import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { DueSignalsModule } from '../due-signals/due-signals.module.js';
import { FailoverModule } from '../failover/failover.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { PhoneEvents } from './phone-events.js';
import { PhoneHealthService } from './phone-health.service.js';
import { PhonePauses } from './phone-pauses.js';
import { PhoneStateWatch } from './phone-state-watch.js';
import { PhonesController } from './phones.controller.js';
import { PhonesRepository } from './phones.repository.js';
import { PhonesService } from './phones.service.js';

@Module({
  imports: [DatabaseModule, DueSignalsModule, FailoverModule, WebhooksModule],
  controllers: [PhonesController],
  providers: [PhonesRepository, PhonesService, PhoneHealthService, PhoneStateWatch, PhoneEvents, PhonePauses],
  exports: [PhonePauses],
})
export class PhonesModule {}
