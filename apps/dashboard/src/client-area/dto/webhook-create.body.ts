import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@smsq/contracts';
import { ArrayMaxSize, ArrayMinSize, IsIn, IsString, Length } from 'class-validator';

/** POST /api/webhooks: where to send, and which events. */
export class WebhookCreateBody {
  @IsString() @Length(1, 2048) url!: string;
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true }) @ArrayMinSize(1) @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length) events!: WebhookEventType[];
}
