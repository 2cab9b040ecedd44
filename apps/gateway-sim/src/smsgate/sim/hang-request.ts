import { IsBoolean } from 'class-validator';

export class HangRequest {
  /** true: the phone takes every request of the app's API and answers none; false: it answers again. */
  @IsBoolean() hang!: boolean;
}
