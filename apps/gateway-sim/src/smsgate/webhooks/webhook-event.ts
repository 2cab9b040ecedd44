/** The events a webhook can subscribe to (the app's WebHookEvent). */
export const WEBHOOK_EVENTS = ['sms:received', 'sms:sent', 'sms:delivered', 'sms:failed', 'system:ping', 'sms:data-received', 'mms:received', 'mms:downloaded', 'app:started', 'sms:cancelled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}
