import { Module, type DynamicModule } from '@nestjs/common';
import { BasicAuthGuard } from './auth/basic-auth.guard.js';
import { DeviceHealthController } from './health/device-health.controller.js';
import { InboxController } from './inbox/inbox.controller.js';
import { InboxService } from './inbox/inbox.service.js';
import { MessageStore } from './messages/message-store.js';
import { MessagesController } from './messages/messages.controller.js';
import { MessagesService } from './messages/messages.service.js';
import { SendFaults } from './messages/send-faults.js';
import { SendLimit } from './messages/send-limit.js';
import { SentSmsLog } from './messages/sent-sms-log.js';
import { SmsSender } from './messages/sms-sender.js';
import { PhoneClock } from './phone/phone-clock.js';
import { PhoneHang, PhoneHangInterceptor } from './sim/phone-hang.js';
import { SimControlController } from './sim/sim-control.controller.js';
import { SmsGateConfig } from './smsgate-config.js';
import { SmsEvents } from './webhooks/sms-events.js';
import { WebhookDeliveries } from './webhooks/webhook-deliveries.js';
import { WebhookRegistry } from './webhooks/webhook-registry.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';

/** The Local Server API of SMS Gateway for Android (SMSGate), on a simulated phone. */
@Module({})
export class SmsGateModule {
  /** `now` replaces the system time, so tests can let a message's TTL pass at once. */
  static register(config: SmsGateConfig, options: { now?: () => number } = {}): DynamicModule {
    return {
      module: SmsGateModule,
      controllers: [MessagesController, WebhooksController, InboxController, DeviceHealthController, SimControlController],
      providers: [
        { provide: SmsGateConfig, useValue: config },
        { provide: PhoneClock, useValue: new PhoneClock(config.utcOffsetMinutes, options.now) },
        { provide: MessageStore, useFactory: () => new MessageStore() },
        { provide: PhoneHang, useValue: new PhoneHang(config.hang) },
        PhoneHangInterceptor,
        { provide: SentSmsLog, useFactory: () => new SentSmsLog() },
        { provide: WebhookRegistry, useFactory: () => new WebhookRegistry() },
        BasicAuthGuard,
        WebhookDeliveries,
        SmsEvents,
        InboxService,
        SendFaults,
        SendLimit,
        SmsSender,
        MessagesService,
      ],
    };
  }
}
