import { Module, type DynamicModule } from '@nestjs/common';
import { ObservabilityModule, ServiceClientsModule } from '@smsq/platform';
import { DispatchConfig } from './config/dispatch-config.js';
import { PhonesModule } from './phones/phones.module.js';
import { TasksModule } from './tasks/tasks.module.js';

@Module({})
export class AppModule {
  static register(config: DispatchConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [ObservabilityModule.forService('dispatch'), ServiceClientsModule.register(config, ['billing']), TasksModule, PhonesModule],
      providers: [{ provide: DispatchConfig, useValue: config }],
      exports: [DispatchConfig],
    };
  }
}
