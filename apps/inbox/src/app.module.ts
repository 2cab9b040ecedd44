import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule } from '@smsq/platform';
import { InboxConfig } from './config/inbox-config.js';
import { DatabaseModule } from './database/database.module.js';
import { MessagesModule } from './messages/messages.module.js';

@Module({})
export class AppModule {
  static register(config: InboxConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [ObservabilityModule.forService('inbox'), DatabaseModule, MessagesModule],
      providers: [{ provide: InboxConfig, useValue: config }],
      exports: [InboxConfig],
    };
  }
}
