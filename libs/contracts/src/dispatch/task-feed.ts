import { IsIn, IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';
import { TASK_STATUSES, type TaskStatus, type TaskView } from './task-view.js';

/**
 * A page of one client's tasks, newest first, that starts after the last task of the page
 * before (`after`): pages stay right while new tasks arrive, and reading a page costs the same
 * however deep it is.
 */
export class TaskFeedQuery {
  @IsEntityId() clientId!: number;
  @IsOptional() @IsIn(TASK_STATUSES) status?: TaskStatus;
  /** Created at or after / before these instants. */
  @IsOptional() @IsISO8601({ strict: true }) since?: string;
  @IsOptional() @IsISO8601({ strict: true }) until?: string;
  /** The creation instant and id of the last task of the page before. */
  @IsOptional() @IsISO8601({ strict: true }) afterCreatedAt?: string;
  @IsOptional() @IsInt() @Min(1) @Max(2_147_483_647) afterId?: number;
  @IsInt() @Min(1) @Max(200) limit!: number;
}

export interface TaskFeed {
  items: TaskView[];
  /** Whether older tasks follow the last item. */
  hasMore: boolean;
}
