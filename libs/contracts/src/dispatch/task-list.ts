import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';
import { TASK_STATUSES, type TaskStatus, type TaskView } from './task-view.js';

/** A page of tasks, newest first: one client's, or (no clientId, an admin) everyone's. */
export class TaskListQuery {
  @IsOptional() @IsEntityId() clientId?: number;
  @IsOptional() @IsIn(TASK_STATUSES) status?: TaskStatus;
  /** Created at or after / before these instants. */
  @IsOptional() @IsISO8601({ strict: true }) from?: string;
  @IsOptional() @IsISO8601({ strict: true }) to?: string;
  /** Matches part of the recipient's number. */
  @IsOptional() @IsString() @MaxLength(32) recipient?: string;
  @IsInt() @Min(1) page!: number;
  @IsInt() @Min(1) @Max(200) pageSize!: number;
}

export interface TaskPage {
  items: TaskView[];
  total: number;
  page: number;
  pageSize: number;
}
