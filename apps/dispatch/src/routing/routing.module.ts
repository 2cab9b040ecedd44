import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { RoutingRepository } from './routing.repository.js';
import { RoutingService } from './routing.service.js';

@Module({
  imports: [DatabaseModule],
  providers: [RoutingRepository, RoutingService],
  exports: [RoutingService],
})
export class RoutingModule {}
