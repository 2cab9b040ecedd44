import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { StatsController } from './stats.controller.js';
import { StatsRepository } from './stats.repository.js';
import { TaskStatsService } from './task-stats.service.js';

@Module({
  imports: [DatabaseModule],
  controllers: [StatsController],
  providers: [StatsRepository, TaskStatsService],
})
export class StatsModule {}
