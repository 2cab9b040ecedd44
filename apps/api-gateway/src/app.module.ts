import { Module, type DynamicModule } from '@nestjs/common';
import { pingPattern } from '@smsq/contracts';
import { ObservabilityModule, Readiness, RedisModule, ServiceClient, ServiceClientsModule, serviceClientToken } from '@smsq/platform';
import { AdminModule } from './admin/admin.module.js';
import { GatewayConfig } from './config/gateway-config.js';
import { DatabaseModule } from './database/database.module.js';
import { DeliveryModule } from './delivery/delivery.module.js';
import { OptOutsModule } from './opt-outs/opt-outs.module.js';
import { PhonesModule } from './phones/phones.module.js';
import { ReferenceModule } from './reference/reference.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { SendingRulesModule } from './sending-rules/sending-rules.module.js';
import { SmppCredentialsModule } from './smpp-credentials/smpp-credentials.module.js';
import { TasksModule } from './tasks/tasks.module.js';
import { TemplatesModule } from './templates/templates.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

const DEPENDENCIES = ['billing', 'dispatch', 'inbox'] as const;

@Module({})
export class AppModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ObservabilityModule.forService('gateway'),
        RedisModule.register(config),
        ServiceClientsModule.register(config, DEPENDENCIES),
        DatabaseModule,
        TasksModule,
        WebhooksModule,
        OptOutsModule,
        TemplatesModule,
        SmppCredentialsModule,
        AdminModule,
        DeliveryModule,
        PhonesModule,
        SendingRulesModule,
        ReferenceModule,
        RetentionModule,
      ],
      providers: [
        { provide: GatewayConfig, useValue: config },
        {
          // The gateway is ready only when every service it sends to answers over the broker.
          provide: 'ServiceReadiness',
          inject: [Readiness, ...DEPENDENCIES.map(serviceClientToken)],
          useFactory: (readiness: Readiness, ...clients: ServiceClient[]) => {
            for (const client of clients) readiness.register(client.service, () => client.send(pingPattern(client.service as never), {}, { timeoutMs: 1_500 }));
          },
        },
      ],
      exports: [GatewayConfig],
    };
  }
}
