import { Injectable } from '@nestjs/common';
import { isTimeZone } from '@smsq/platform';
import { InvalidRequestError, type DailyTaskCount, type SystemStats, type SystemStatsQuery, type TaskDailyStatsQuery } from '@smsq/contracts';
import { isStoredId } from '../database/stored-id.js';
import { StatsRepository } from './stats.repository.js';

@Injectable()
export class TaskStatsService {
  constructor(private readonly stats: StatsRepository) {}

  async daily(query: TaskDailyStatsQuery): Promise<DailyTaskCount[]> {
    if (!isTimeZone(query.timeZone)) throw new InvalidRequestError(`${query.timeZone} is not an IANA time zone`);
    // A client id no row can have: the same days, all zeros.
    const clientId = query.clientId === undefined || isStoredId(query.clientId) ? query.clientId : 0;
    return this.stats.dailyCounts(clientId, query.days, query.timeZone);
  }

  async system(query: SystemStatsQuery): Promise<SystemStats> {
    const [tasksByStatus, sentPerMinute] = await Promise.all([this.stats.countsByStatus(), this.stats.sentPerMinute(query.minutes)]);
    return { tasksByStatus, sentPerMinute };
  }
}
