import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule, RedisModule, ServiceClientsModule } from '@smsq/platform';
import { AdminAreaModule } from './admin-area/admin-area.module.js';
import { AuthModule } from './auth/auth.module.js';
import { ClientAreaModule } from './client-area/client-area.module.js';
import { DashboardConfig } from './config/dashboard-config.js';
import { DatabaseModule } from './database/database.module.js';
import { PasswordResetModule } from './password-reset/password-reset.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { SettingsModule } from './settings/settings.module.js';

/** The services the dashboard talks to, over the broker only. */
export const DASHBOARD_DEPENDENCIES = ['gateway', 'billing', 'dispatch', 'inbox'] as const;

@Module({})
export class AppModule {
  /** `serviceClients` replaces the broker clients (tests give canned answers). */
  static register(config: DashboardConfig, options: { serviceClients?: DynamicModule } = {}): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ObservabilityModule.forService('dashboard'),
        RedisModule.register(config),
        options.serviceClients ?? ServiceClientsModule.register(config, DASHBOARD_DEPENDENCIES),
        DatabaseModule,
        AuthModule,
        PasswordResetModule,
        ClientAreaModule,
        AdminAreaModule,
        SettingsModule,
        RetentionModule,
      ],
      providers: [{ provide: DashboardConfig, useValue: config }],
      exports: [DashboardConfig],
    };
  }
}
