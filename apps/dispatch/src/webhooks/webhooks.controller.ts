import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  Patterns,
  WebhookCreateCommand,
  WebhookDeleteCommand,
  WebhookDeliveriesQuery,
  WebhookEnableCommand,
  WebhookListQuery,
  WebhookRedeliverCommand,
  WebhookRotateCommand,
  WebhookTestCommand,
  type Ok,
  type WebhookCreated,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@smsq/contracts';
import { WebhooksService } from './webhooks.service.js';

@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @MessagePattern(Patterns.dispatch.webhookCreate)
  create(@Payload() command: WebhookCreateCommand): Promise<WebhookCreated> {
    return this.webhooks.create(command);
  }

  @MessagePattern(Patterns.dispatch.webhookList)
  list(@Payload() query: WebhookListQuery): Promise<WebhookEndpointView[]> {
    return this.webhooks.list(query.clientId);
  }

  @MessagePattern(Patterns.dispatch.webhookDelete)
  delete(@Payload() command: WebhookDeleteCommand): Promise<Ok> {
    return this.webhooks.delete(command);
  }

  @MessagePattern(Patterns.dispatch.webhookRotate)
  rotate(@Payload() command: WebhookRotateCommand): Promise<WebhookCreated> {
    return this.webhooks.rotate(command);
  }

  @MessagePattern(Patterns.dispatch.webhookDeliveries)
  deliveries(@Payload() query: WebhookDeliveriesQuery): Promise<WebhookDeliveryView[]> {
    return this.webhooks.deliveriesOf(query);
  }

  @MessagePattern(Patterns.dispatch.webhookRedeliver)
  redeliver(@Payload() command: WebhookRedeliverCommand): Promise<WebhookDeliveryView> {
    return this.webhooks.redeliver(command);
  }

  @MessagePattern(Patterns.dispatch.webhookTest)
  test(@Payload() command: WebhookTestCommand): Promise<WebhookDeliveryView> {
    return this.webhooks.sendTest(command);
  }

  @MessagePattern(Patterns.dispatch.webhookEnable)
  enable(@Payload() command: WebhookEnableCommand): Promise<WebhookEndpointView> {
    return this.webhooks.enable(command);
  }
}
