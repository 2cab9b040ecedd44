import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule, ServiceClientsModule } from '@smsq/platform';
import { InboxConfig } from './config/inbox-config.js';
import { DatabaseModule } from './database/database.module.js';
import { MessagesModule } from './messages/messages.module.js';
import { OutboxModule } from './outbox/outbox.module.js';
import { RetentionModule } from './retention/retention.module.js';

@Module({})
export class AppModule {
  static register(config: InboxConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [ObservabilityModule.forService('inbox'), ServiceClientsModule.register(config, ['dispatch']), DatabaseModule, MessagesModule, OutboxModule, RetentionModule],
      providers: [{ provide: InboxConfig, useValue: config }],
      exports: [InboxConfig],
    };
  }
}
