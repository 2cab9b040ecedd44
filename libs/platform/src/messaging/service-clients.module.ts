import type { ServiceName } from '@smsq/contracts';
import { Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { ClientProxyFactory } from '@nestjs/microservices';
import type { CommonConfig } from '../config/common-config.js';
import { ServiceMetrics } from '../observability/metrics.js';
import { Readiness } from '../observability/readiness.js';
import { brokerAnswersAfresh } from './broker-probe.js';
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

/**
 * Provides a ServiceClient for each service this app talks to, under `serviceClientToken(name)`.
 * The `optional` ones are not part of this app's readiness: an install may run without them (the
 * SMPP service), and what is sent to them waits in an outbox meanwhile.
 */
@Module({})
export class ServiceClientsModule {
  static register(config: CommonConfig, services: readonly ServiceName[], { optional = [] }: { optional?: readonly ServiceName[] } = {}): DynamicModule {
    const providers = [...services, ...optional].map((service) => ({
      provide: serviceClientToken(service),
      // The calling service's metrics and readiness come from its ObservabilityModule, where there is one.
      useFactory: (metrics?: ServiceMetrics, readiness?: Readiness) => {
        const client = new ServiceClient(service, ClientProxyFactory.create(rmqClientOptions(config, service)), config.rpcTimeoutMs, metrics);
        // Each client has a connection of its own, which can go silent on its own.
        if (!optional.includes(service)) readiness?.register(`broker:${service}`, () => client.probe(), { reachable: () => brokerAnswersAfresh(config.amqpUrl), alive: () => client.blocked });
        return client;
      },
      inject: [
        { token: ServiceMetrics, optional: true },
        { token: Readiness, optional: true },
      ],
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
