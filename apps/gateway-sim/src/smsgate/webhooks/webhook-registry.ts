import { nanoId } from '../phone/nano-id.js';
import type { WebhookEvent } from './webhook-event.js';
import type { WebhookRegistration } from './webhook-registration.js';

export interface Webhook {
  id: string;
  url: string;
  event: WebhookEvent;
}

/** The phone's webhooks (those of its Local Server), in memory. */
export class WebhookRegistry {
  private readonly webhooks = new Map<string, Webhook>();

  /** Registers a webhook; one with the same id is replaced. */
  replace(registration: WebhookRegistration): Webhook {
    const webhook = { id: registration.id ?? nanoId(), url: registration.url, event: registration.event };
    this.webhooks.delete(webhook.id);
    this.webhooks.set(webhook.id, webhook);
    return webhook;
  }

  all(): Webhook[] {
    return [...this.webhooks.values()];
  }

  delete(id: string): void {
    this.webhooks.delete(id);
  }

  subscribedTo(event: WebhookEvent): Webhook[] {
    return this.all().filter((webhook) => webhook.event === event);
  }
}

/** A webhook as the app lists it (its WebHookDTO through Gson: `deviceId` is null there, so absent). */
export function webhookView(webhook: Webhook): Record<string, unknown> {
  return { id: webhook.id, url: webhook.url, event: webhook.event, source: 'Local' };
}
