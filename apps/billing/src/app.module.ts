import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule, ServiceClientsModule } from '@smsq/platform';
import { AccountsModule } from './accounts/accounts.module.js';
import { AuditModule } from './audit/audit.module.js';
import { ChargesModule } from './charges/charges.module.js';
import { BillingConfig } from './config/billing-config.js';
import { DatabaseModule } from './database/database.module.js';
import { SettlementModule } from './settlement/settlement.module.js';

@Module({})
export class AppModule {
  static register(config: BillingConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ObservabilityModule.forService('billing'),
        ServiceClientsModule.register(config, ['dispatch']),
        DatabaseModule,
        AccountsModule,
        ChargesModule,
        SettlementModule,
        AuditModule,
      ],
      providers: [{ provide: BillingConfig, useValue: config }],
      exports: [BillingConfig],
    };
  }
}
