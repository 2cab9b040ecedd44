import { Inject, Injectable } from '@nestjs/common';
import {
  InvalidRequestError,
  Patterns,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_GRACE_MS,
  type Ok,
  type WebhookCreateCommand,
  type WebhookCreated,
  type WebhookDeleteCommand,
  type WebhookEnableCommand,
  type WebhookEndpointView,
  type WebhookEventType,
  type WebhookRotateCommand,
} from '@smsq/contracts';
import { jsonObjectOf, ServiceClient, serviceClientToken } from '@smsq/platform';
import { storedIdFromPath } from '../identity/stored-id.js';

/** An endpoint as the public API shows it. */
function endpointBody(endpoint: WebhookEndpointView) {
  return { id: endpoint.id, url: endpoint.url, events: endpoint.events, active: endpoint.active, disabled_reason: endpoint.disabledReason, created_at: endpoint.createdAt };
}

/** POST, GET and DELETE /smsapi/webhooks: a client's status webhook endpoints, kept by dispatch. */
@Injectable()
export class WebhooksService {
  constructor(@Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient) {}

  async create(clientId: number, body: unknown): Promise<ReturnType<typeof endpointBody> & { secret: string }> {
    const fields = jsonObjectOf(body, 'a JSON object with url and events');
    if (typeof fields['url'] !== 'string' || fields['url'].length > 2048) throw new InvalidRequestError('url is required: an http or https URL of at most 2048 characters');
    const command: WebhookCreateCommand = { clientId, url: fields['url'], events: eventsOf(fields['events']) };
    const created = await this.dispatch.send<WebhookCreated>(Patterns.dispatch.webhookCreate, command);
    return { ...endpointBody(created.endpoint), secret: created.secret };
  }

  async list(clientId: number): Promise<{ items: Array<ReturnType<typeof endpointBody>> }> {
    const endpoints = await this.dispatch.send<WebhookEndpointView[]>(Patterns.dispatch.webhookList, { clientId });
    return { items: endpoints.map(endpointBody) };
  }

  async delete(clientId: number, rawId: string): Promise<Ok> {
    const command: WebhookDeleteCommand = { clientId, id: storedIdFromPath(rawId, 'webhook endpoint') };
    return this.dispatch.send<Ok>(Patterns.dispatch.webhookDelete, command);
  }

  /** Sends to an endpoint smsq had stopped sending to again; the events that waited go first. */
  async enable(clientId: number, rawId: string): Promise<ReturnType<typeof endpointBody>> {
    const command: WebhookEnableCommand = { clientId, id: storedIdFromPath(rawId, 'webhook endpoint') };
    return endpointBody(await this.dispatch.send<WebhookEndpointView>(Patterns.dispatch.webhookEnable, command));
  }

  /** A new secret, shown once; deliveries carry a signature with the old one too for a day, while receivers switch. */
  async rotateSecret(clientId: number, rawId: string): Promise<ReturnType<typeof endpointBody> & { secret: string; previous_secret_valid_until: string }> {
    const command: WebhookRotateCommand = { clientId, id: storedIdFromPath(rawId, 'webhook endpoint') };
    const rotated = await this.dispatch.send<WebhookCreated>(Patterns.dispatch.webhookRotate, command);
    return { ...endpointBody(rotated.endpoint), secret: rotated.secret, previous_secret_valid_until: new Date(Date.now() + WEBHOOK_SECRET_GRACE_MS).toISOString() };
  }
}


function eventsOf(value: unknown): WebhookEventType[] {
  const known = WEBHOOK_EVENT_TYPES as readonly string[];
  if (!Array.isArray(value) || value.length === 0 || !value.every((event) => typeof event === 'string' && known.includes(event))) {
    throw new InvalidRequestError(`events is required: a list of one or more of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return [...new Set(value as WebhookEventType[])];
}
