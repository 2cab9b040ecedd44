import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule, RedisModule, ServiceClientsModule, TokenBuckets } from '@smsq/platform';
import { taskIntakeProviders } from '@smsq/task-intake';
import { Redis } from 'ioredis';
import { BindAuthenticator } from './binds/bind-authenticator.js';
import { BindRegistry } from './binds/bind-registry.js';
import { CredentialWatch } from './binds/credential-watch.js';
import { SmppConfig } from './config/smpp-config.js';
import { DatabaseModule } from './database/database.module.js';
import { SmppDatabase } from './database/smpp-database.js';
import { ReceiverDelivery } from './delivery/receiver-delivery.js';
import { TaskQueriesService } from './queries/task-queries.service.js';
import { ReceiptsController } from './receipts/receipts.controller.js';
import { ReceiptsRepository } from './receipts/receipts.repository.js';
import { ReceiptsService } from './receipts/receipts.service.js';
import { ReplyCursorsRepository } from './replies/reply-cursors.repository.js';
import { RetentionModule } from './retention/retention.module.js';
import { LongSubmits } from './sessions/long-submits.js';
import { SmppListener } from './sessions/smpp-listener.js';
import { PhoneNumbers } from './submits/phone-numbers.js';
import { SUBMIT_BUCKETS, SubmitService } from './submits/submit.service.js';
import { SubmissionsRepository } from './submits/submissions.repository.js';

@Module({})
export class AppModule {
  static register(config: SmppConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [ObservabilityModule.forService('smpp'), RedisModule.register(config), ServiceClientsModule.register(config, ['gateway', 'dispatch', 'billing', 'inbox']), DatabaseModule, RetentionModule],
      controllers: [ReceiptsController],
      providers: [
        { provide: SmppConfig, useValue: config },
        { provide: SUBMIT_BUCKETS, inject: [Redis], useFactory: (redis: Redis) => new TokenBuckets(redis, config.rateLimitRps) },
        { provide: LongSubmits, useFactory: () => new LongSubmits(config.partWaitS * 1000) },
        BindRegistry,
        BindAuthenticator,
        CredentialWatch,
        SubmitService,
        ...taskIntakeProviders({ settings: SmppConfig, database: SmppDatabase, schema: 'smpp' }),
        SubmissionsRepository,
        PhoneNumbers,
        TaskQueriesService,
        ReceiptsService,
        ReceiptsRepository,
        ReplyCursorsRepository,
        ReceiverDelivery,
        SmppListener,
      ],
      exports: [SmppConfig],
    };
  }
}
