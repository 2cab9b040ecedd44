import { Module, type DynamicModule } from '@nestjs/common';
import { UnavailableError, type ServiceName } from '@smsq/contracts';
import { serviceClientToken, type ServiceClient } from '@smsq/platform';
import { DASHBOARD_DEPENDENCIES } from '../app.module.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = (payload: any) => unknown;

/** A stand-in for one service on the broker: canned answers by pattern, and a record of what was sent. */
export class FakeService {
  readonly sent: Array<{ pattern: string; payload: Record<string, unknown> }> = [];
  private readonly answers = new Map<string, Answer>();

  constructor(readonly service: string) {}

  /** Answers `pattern` with what `answer` returns (or throws, e.g. a NotFoundError). */
  on(pattern: string, answer: Answer): this {
    this.answers.set(pattern, answer);
    return this;
  }

  async send<T>(pattern: string, payload: object): Promise<T> {
    this.sent.push({ pattern, payload: payload as Record<string, unknown> });
    const answer = this.answers.get(pattern);
    if (!answer) throw new UnavailableError(`the ${this.service} service did not answer; retry later`);
    return (await answer(payload)) as T;
  }

  payloadsOf(pattern: string): Array<Record<string, unknown>> {
    return this.sent.filter((message) => message.pattern === pattern).map((message) => message.payload);
  }

  async close(): Promise<void> {}
}

export type FakeServices = Record<(typeof DASHBOARD_DEPENDENCIES)[number], FakeService>;

@Module({})
class FakeServiceClientsModule {}

/** The fakes and the module that provides them in place of the broker clients. */
export function fakeServiceClients(): { services: FakeServices; module: DynamicModule } {
  const services = Object.fromEntries(DASHBOARD_DEPENDENCIES.map((name) => [name, new FakeService(name)])) as FakeServices;
  const providers = DASHBOARD_DEPENDENCIES.map((name: ServiceName) => ({ provide: serviceClientToken(name), useValue: services[name as keyof FakeServices] as unknown as ServiceClient }));
  return { services, module: { module: FakeServiceClientsModule, global: true, providers, exports: providers.map((provider) => provider.provide) } };
}
