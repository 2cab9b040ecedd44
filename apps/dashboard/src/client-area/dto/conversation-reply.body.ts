import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import { OUTGOING_MESSAGE_MAX_LENGTH } from './send.body.js';

/** POST /api/conversations/:number/reply: the text (sealed in the page when `encrypted`), and a key the page keeps for retries of the same reply. */
export class ConversationReplyBody {
  @IsString() @Length(0, OUTGOING_MESSAGE_MAX_LENGTH) message!: string;
  @IsOptional() @IsBoolean() encrypted?: boolean;
  @IsString() @Length(1, 255) idempotencyKey!: string;
}
