import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';
import { REPLY_KEYWORDS, type ReplyKeyword } from '../sealed-messages.js';
import { IsEntityId } from '../validation.js';

/** What a client can be told about its tasks, as they happen (DESIGN §3, "Beyond the specification"). */
export const WEBHOOK_EVENT_TYPES = [
  'task.sent',
  'task.delivered',
  'task.failed',
  'task.expired',
  'task.cancelled',
  'task.rerouted',
  'message.received',
  'phone.silent',
  'phone.online',
  'phone.paused',
  'phone.resumed',
  'recipient.opted_out',
  'recipient.opted_in',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the test event the dashboard sends on request; `data` names the endpoint. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** After a rotation, deliveries are signed with the old secret as well for this long. */
export const WEBHOOK_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** Each client's endpoints, at most. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** Registers an endpoint; the gateway has checked the URL's form. Answered `WebhookCreated`, its secret shown this once. */
export class WebhookCreateCommand {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 2048) url!: string;
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true }) @ArrayMinSize(1) @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length) events!: WebhookEventType[];
}

/** The client's endpoints, answered `WebhookEndpointView[]`, oldest first. */
export class WebhookListQuery {
  @IsEntityId() clientId!: number;
}

/** Removes one of the client's endpoints with its pending deliveries; another client's is not found. */
export class WebhookDeleteCommand {
  @IsEntityId() clientId!: number;
  @IsInt() id!: number;
}

/** A fresh secret for one of the client's endpoints, answered `WebhookCreated`; the old one keeps signing for WEBHOOK_SECRET_GRACE_MS. */
export class WebhookRotateCommand {
  @IsEntityId() clientId!: number;
  @IsInt() id!: number;
}

/** Sends to an endpoint smsq had stopped sending to (410 Gone, or days of failures) again, its still pending deliveries first; answered the `WebhookEndpointView`. */
export class WebhookEnableCommand {
  @IsEntityId() clientId!: number;
  @IsInt() id!: number;
}

/** One endpoint's latest deliveries, newest first, answered `WebhookDeliveryView[]`. */
export class WebhookDeliveriesQuery {
  @IsEntityId() clientId!: number;
  @IsInt() endpointId!: number;
  @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number;
}

/** Sends a delivery again, the same event and bytes, now; answered the `WebhookDeliveryView`. */
export class WebhookRedeliverCommand {
  @IsEntityId() clientId!: number;
  /** A delivery id (a bigint, as digits). */
  @IsString() @Matches(/^\d{1,18}$/) deliveryId!: string;
}

/** Queues a `webhook.test` event for one endpoint, answered its `WebhookDeliveryView`. */
export class WebhookTestCommand {
  @IsEntityId() clientId!: number;
  @IsInt() endpointId!: number;
}

/**
 * A reply inbox stored for a client, relayed from inbox's outbox (so at least once): dispatch
 * queues `message.received` for the client's endpoints once per `eventId`, with the task the
 * reply most likely answers. Answered `Ok`.
 */
export class ReplyReceivedCommand {
  @IsUUID() eventId!: string;
  @IsEntityId() clientId!: number;
  @IsOptional() @IsInt() phoneId!: number | null;
  @IsInt() messageId!: number;
  @IsString() @Length(1, 64) from!: string;
  @IsString() message!: string;
  /** Sealed by its worker: the keyword (if any) is the worker's `keyword`, as smsq cannot read the text. */
  @IsOptional() @IsBoolean() encrypted?: boolean;
  @IsOptional() @IsIn(REPLY_KEYWORDS) keyword?: ReplyKeyword;
  @IsISO8601({ strict: true }) receivedAt!: string;
  @IsISO8601({ strict: true }) storedAt!: string;
}

export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  type: string;
  taskId: number | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** When the next attempt is due, while pending. */
  nextAttemptAt: string | null;
}

export interface WebhookEndpointView {
  id: number;
  url: string;
  events: WebhookEventType[];
  /** False once smsq stopped sending to it: the receiver answered 410 Gone, or failed for days. */
  active: boolean;
  disabledReason: string | null;
  createdAt: string;
}

export interface WebhookCreated {
  endpoint: WebhookEndpointView;
  /** Signs every delivery (`Smsq-Signature`); shown once. */
  secret: string;
}
