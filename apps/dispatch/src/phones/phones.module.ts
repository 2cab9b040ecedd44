import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { DueSignalsModule } from '../due-signals/due-signals.module.js';
import { PhoneHealthService } from './phone-health.service.js';
import { PhonesController } from './phones.controller.js';
import { PhonesRepository } from './phones.repository.js';
import { PhonesService } from './phones.service.js';

@Module({
  imports: [DatabaseModule, DueSignalsModule],
  controllers: [PhonesController],
  providers: [PhonesRepository, PhonesService, PhoneHealthService],
})
export class PhonesModule {}
