import { IsBoolean } from 'class-validator';

export class HoldRequest {
  /** true: every message stays Pending; false: the phone sends again. */
  @IsBoolean() hold!: boolean;
}
