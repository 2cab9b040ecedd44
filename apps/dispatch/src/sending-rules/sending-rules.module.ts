import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { SendingRulesController } from './sending-rules.controller.js';
import { SendingRulesRepository } from './sending-rules.repository.js';
import { SendingRulesService } from './sending-rules.service.js';

/** Each client's routing mode and send windows. */
@Module({
  imports: [DatabaseModule],
  controllers: [SendingRulesController],
  providers: [SendingRulesRepository, SendingRulesService],
})
export class SendingRulesModule {}
