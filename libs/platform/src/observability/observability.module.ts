import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { ServiceName } from '@smsq/contracts';
import { HealthController } from './health.controller.js';
import { metricsOf, ServiceMetrics, startDefaultMetrics } from './metrics.js';
import { pingControllerFor } from './ping.controller.js';
import { Liveness } from './liveness.js';
import { Readiness } from './readiness.js';

@Global()
@Module({})
export class ObservabilityModule {
  static forService(service: ServiceName | 'gateway-sim'): DynamicModule {
    startDefaultMetrics(service);
    return { module: ObservabilityModule, controllers: [HealthController, ...(service === 'gateway-sim' ? [] : [pingControllerFor(service)])], providers: [Readiness, Liveness, { provide: ServiceMetrics, useValue: metricsOf(service) }], exports: [Readiness, Liveness, ServiceMetrics] };
  }
}
