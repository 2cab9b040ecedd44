import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';
import type { TaskStatus } from './task-view.js';

/** Tasks per local day for the last `days` days (today included), by status; no clientId: everyone's. */
export class TaskDailyStatsQuery {
  @IsOptional() @IsEntityId() clientId?: number;
  @IsInt() @Min(1) @Max(366) days!: number;
  /** The IANA zone whose days are counted. */
  @IsString() @Length(1, 64) timeZone!: string;
}

export interface DailyTaskCount {
  /** `YYYY-MM-DD` in the zone asked for; every day of the range is present, zeros included. */
  day: string;
  sent: number;
  failed: number;
  pending: number;
}

/** For the admin's system page. */
export class SystemStatsQuery {
  @IsInt() @Min(1) @Max(1440) minutes!: number;
}

export interface SystemStats {
  tasksByStatus: Record<TaskStatus, number>;
  /** Tasks reported sent per minute, oldest first, every minute of the range present. */
  sentPerMinute: Array<{ minute: string; sent: number }>;
}
