import { Injectable } from '@nestjs/common';
import {
  ConflictError,
  InvalidRequestError,
  MAX_WEBHOOK_ENDPOINTS,
  NotFoundError,
  WEBHOOK_SECRET_GRACE_MS,
  WEBHOOK_TEST_EVENT,
  type Ok,
  type ReplyReceivedCommand,
  type WebhookCreateCommand,
  type WebhookCreated,
  type WebhookDeleteCommand,
  type WebhookDeliveriesQuery,
  type WebhookDeliveryView,
  type WebhookEnableCommand,
  type WebhookEndpointView,
  type WebhookRedeliverCommand,
  type WebhookRotateCommand,
  type WebhookTestCommand,
} from '@smsq/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { isStoredId } from '../database/stored-id.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

const DELIVERIES_SHOWN = 20;

/** A client's webhook endpoints: registered with a fresh secret shown once, listed, removed. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async create(command: WebhookCreateCommand): Promise<WebhookCreated> {
    const url = parseEndpointUrl(command.url);
    if ((await this.endpoints.count(command.clientId)) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new ConflictError(`a client has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`);
    }
    const secret = newSecret();
    const endpoint = await this.endpoints.insert(command.clientId, url, [...new Set(command.events)], secret);
    return { endpoint, secret };
  }

  async rotate(command: WebhookRotateCommand): Promise<WebhookCreated> {
    const secret = newSecret();
    const endpoint = isStoredId(command.id) ? await this.endpoints.rotateOfClient(command.clientId, command.id, secret, new Date(Date.now() + WEBHOOK_SECRET_GRACE_MS)) : null;
    if (!endpoint) throw new NotFoundError('webhook endpoint');
    return { endpoint, secret };
  }

  /** Deliveries that waited while it was disabled go out with the next round. */
  async enable(command: WebhookEnableCommand): Promise<WebhookEndpointView> {
    const endpoint = isStoredId(command.id) ? await this.endpoints.enableOfClient(command.clientId, command.id) : null;
    if (!endpoint) throw new NotFoundError('webhook endpoint');
    return endpoint;
  }

  async deliveriesOf(query: WebhookDeliveriesQuery): Promise<WebhookDeliveryView[]> {
    await this.endpointOf(query.clientId, query.endpointId);
    return this.deliveries.ofEndpoint(query.endpointId, query.limit ?? DELIVERIES_SHOWN);
  }

  async redeliver(command: WebhookRedeliverCommand): Promise<WebhookDeliveryView> {
    const delivery = await this.deliveries.redeliverOfClient(command.clientId, BigInt(command.deliveryId));
    if (!delivery) throw new NotFoundError('webhook delivery');
    return delivery;
  }

  /** A `webhook.test` event, queued like any other: signed, retried, listed with the endpoint's deliveries. */
  async sendTest(command: WebhookTestCommand): Promise<WebhookDeliveryView> {
    const endpoint = await this.endpointOf(command.clientId, command.endpointId);
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, type: WEBHOOK_TEST_EVENT, created_at: new Date().toISOString(), data: { endpoint_id: endpoint.id } });
    return this.deliveries.insertFixed(endpoint.id, eventId, WEBHOOK_TEST_EVENT, body);
  }

  /**
   * `message.received` for a reply inbox stored: its body is fixed now, with the task the reply
   * most likely answers, so every endpoint and every retry gets the same event.
   */
  async queueReplyEvent(command: ReplyReceivedCommand): Promise<Ok> {
    const taskId = await this.deliveries.latestTaskTo(command.clientId, command.from, command.phoneId ?? null, new Date(command.receivedAt));
    const body = JSON.stringify({
      id: command.eventId,
      type: 'message.received',
      created_at: command.storedAt,
      data: { id: command.messageId, from: command.from, message: command.message, encrypted: command.encrypted === true, received_at: command.receivedAt, phone_id: command.phoneId ?? null, in_reply_to_task_id: taskId },
    });
    await this.deliveries.queueFixed('message.received', [{ clientId: command.clientId, eventId: command.eventId, taskId, body }]);
    return { ok: true };
  }

  private async endpointOf(clientId: number, id: number): Promise<WebhookEndpointView> {
    const endpoint = isStoredId(id) ? await this.endpoints.findOfClient(clientId, id) : null;
    if (!endpoint) throw new NotFoundError('webhook endpoint');
    return endpoint;
  }

  list(clientId: number): Promise<WebhookEndpointView[]> {
    return this.endpoints.ofClient(clientId);
  }

  async delete(command: WebhookDeleteCommand): Promise<Ok> {
    if (!isStoredId(command.id) || !(await this.endpoints.deleteOfClient(command.clientId, command.id))) throw new NotFoundError('webhook endpoint');
    return { ok: true };
  }
}

function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** An absolute http(s) URL without credentials in it; where it points is checked on each delivery, after resolving. */
export function parseEndpointUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidRequestError('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InvalidRequestError('url must be an http or https URL');
  if (url.username || url.password) throw new InvalidRequestError('url must not carry a user name or password; use the signature to trust deliveries');
  return url.toString();
}
