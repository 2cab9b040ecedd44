import { Inject, Injectable } from '@nestjs/common';
import {
  Patterns,
  WEBHOOK_EVENT_TYPES,
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
import type { CreatedWebhook, WebhookDeliveryRow, WebhookRow, WebhooksAnswer } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { ClientDirectory } from '../shared/client-directory.js';
import type { WebhookCreateBody } from './dto/webhook-create.body.js';

/** The client's status webhooks, kept and sent by dispatch; every call names the session's client, so another's are not found. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly directory: ClientDirectory,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async list(clientId: number): Promise<WebhooksAnswer> {
    const [endpoints, timeZone] = await Promise.all([this.dispatch.send<WebhookEndpointView[]>(Patterns.dispatch.webhookList, { clientId }), this.directory.timeZoneOf(clientId)]);
    return { endpoints: endpoints.map((endpoint) => ({ ...endpoint, timeZone })), eventTypes: [...WEBHOOK_EVENT_TYPES] };
  }

  async create(clientId: number, body: WebhookCreateBody): Promise<CreatedWebhook> {
    const command: WebhookCreateCommand = { clientId, url: body.url, events: body.events };
    return this.withRow(clientId, await this.dispatch.send<WebhookCreated>(Patterns.dispatch.webhookCreate, command));
  }

  async rotate(clientId: number, id: number): Promise<CreatedWebhook> {
    const command: WebhookRotateCommand = { clientId, id };
    return this.withRow(clientId, await this.dispatch.send<WebhookCreated>(Patterns.dispatch.webhookRotate, command));
  }

  async enable(clientId: number, id: number): Promise<WebhookRow> {
    const command: WebhookEnableCommand = { clientId, id };
    const [endpoint, timeZone] = await Promise.all([this.dispatch.send<WebhookEndpointView>(Patterns.dispatch.webhookEnable, command), this.directory.timeZoneOf(clientId)]);
    return { ...endpoint, timeZone };
  }

  async delete(clientId: number, id: number): Promise<void> {
    const command: WebhookDeleteCommand = { clientId, id };
    await this.dispatch.send(Patterns.dispatch.webhookDelete, command);
  }

  async deliveries(clientId: number, endpointId: number): Promise<WebhookDeliveryRow[]> {
    const query: WebhookDeliveriesQuery = { clientId, endpointId };
    const [deliveries, timeZone] = await Promise.all([this.dispatch.send<WebhookDeliveryView[]>(Patterns.dispatch.webhookDeliveries, query), this.directory.timeZoneOf(clientId)]);
    return deliveries.map((delivery) => ({ ...delivery, timeZone }));
  }

  async sendTest(clientId: number, endpointId: number): Promise<WebhookDeliveryRow> {
    const command: WebhookTestCommand = { clientId, endpointId };
    return this.rowOf(clientId, await this.dispatch.send<WebhookDeliveryView>(Patterns.dispatch.webhookTest, command));
  }

  async redeliver(clientId: number, deliveryId: string): Promise<WebhookDeliveryRow> {
    const command: WebhookRedeliverCommand = { clientId, deliveryId };
    return this.rowOf(clientId, await this.dispatch.send<WebhookDeliveryView>(Patterns.dispatch.webhookRedeliver, command));
  }

  private async withRow(clientId: number, created: WebhookCreated): Promise<CreatedWebhook> {
    const webhook: WebhookRow = { ...created.endpoint, timeZone: await this.directory.timeZoneOf(clientId) };
    return { webhook, secret: created.secret };
  }

  private async rowOf(clientId: number, delivery: WebhookDeliveryView): Promise<WebhookDeliveryRow> {
    return { ...delivery, timeZone: await this.directory.timeZoneOf(clientId) };
  }
}
