import { IsString, Length } from 'class-validator';

/** POST /api/conversations/:number/reply: the text, and a key the page keeps for retries of the same reply. */
export class ConversationReplyBody {
  @IsString() @Length(0, 6_400) message!: string;
  @IsString() @Length(1, 255) idempotencyKey!: string;
}
