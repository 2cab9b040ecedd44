import type { ServiceName } from '@smsq/contracts';
import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ClientProxyFactory } from '@nestjs/microservices';
import type { CommonConfig } from '../config/common-config.js';
import { ServiceMetrics } from '../observability/metrics.js';
import { rmqClientOptions } from './rmq-options.js';
import { ServiceClient } from './service-client.js';

/** The injection token of the client for one service. */
export function serviceClientToken(service: ServiceName): string {
  return `ServiceClient:${service}`;
}

class ServiceClientsShutdown implements OnApplicationShutdown {
  constructor(private readonly clients: ServiceClient[]) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.clients.map((client) => client.close()));
  }
}

/** Provides a ServiceClient for each service this app talks to, under `serviceClientToken(name)`. */
@Module({})
export class ServiceClientsModule {
  static register(config: CommonConfig, services: readonly ServiceName[]): DynamicModule {
    const providers = services.map((service) => ({
      provide: serviceClientToken(service),
      // The calling service's metrics come from its ObservabilityModule, where there is one.
      useFactory: (metrics?: ServiceMetrics) => new ServiceClient(service, ClientProxyFactory.create(rmqClientOptions(config, service)), config.rpcTimeoutMs, metrics),
      inject: [{ token: ServiceMetrics, optional: true }],
    }));
    const shutdown = {
      provide: ServiceClientsShutdown,
      useFactory: (...clients: ServiceClient[]) => new ServiceClientsShutdown(clients),
      inject: providers.map((provider) => provider.provide),
    };
    return {
      module: ServiceClientsModule,
      global: true,
      providers: [...providers, shutdown],
      exports: providers.map((provider) => provider.provide),
    };
  }
}
