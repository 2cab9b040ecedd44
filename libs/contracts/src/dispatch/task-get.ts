import { IsInt } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** One task of one client; another client's task is not found. */
export class TaskGetQuery {
  @IsEntityId() clientId!: number;
  @IsInt() id!: number;
}
