import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Patterns, SystemStatsQuery, TaskDailyStatsQuery, type DailyTaskCount, type SystemStats } from '@smsq/contracts';
import { TaskStatsService } from './task-stats.service.js';

@Controller()
export class StatsController {
  constructor(private readonly stats: TaskStatsService) {}

  @MessagePattern(Patterns.dispatch.taskDailyStats)
  daily(@Payload() query: TaskDailyStatsQuery): Promise<DailyTaskCount[]> {
    return this.stats.daily(query);
  }

  @MessagePattern(Patterns.dispatch.systemStats)
  system(@Payload() query: SystemStatsQuery): Promise<SystemStats> {
    return this.stats.system(query);
  }
}
