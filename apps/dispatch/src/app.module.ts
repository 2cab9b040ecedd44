import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule, RedisModule, ServiceClientsModule } from '@smsq/platform';
import { ClaimsModule } from './claims/claims.module.js';
import { DispatchConfig } from './config/dispatch-config.js';
import { LeasesModule } from './leases/leases.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { OutboxModule } from './outbox/outbox.module.js';
import { PhoneConditions } from './phones/phone-conditions.js';
import { PhonesModule } from './phones/phones.module.js';
import { RepliesModule } from './replies/replies.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { SendingRulesModule } from './sending-rules/sending-rules.module.js';
import { StatsModule } from './stats/stats.module.js';
import { TasksModule } from './tasks/tasks.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

@Module({})
export class AppModule {
  static register(config: DispatchConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ObservabilityModule.forService('dispatch'),
        RedisModule.register(config),
        ServiceClientsModule.register(config, ['billing'], { optional: ['smpp'] }),
        TasksModule,
        PhonesModule,
        ClaimsModule,
        LeasesModule,
        OutboxModule,
        RepliesModule,
        StatsModule,
        WebhooksModule,
        MetricsModule,
        RetentionModule,
        SendingRulesModule,
      ],
      providers: [{ provide: DispatchConfig, useValue: config }, PhoneConditions],
      exports: [DispatchConfig, PhoneConditions],
    };
  }
}
