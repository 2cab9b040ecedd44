import { Global, Injectable, Module } from '@nestjs/common';

/**
 * Aborts its signal when the service starts to shut down, for work that should end early rather
 * than hold the shutdown up: a long poll answers at once with what it has.
 */
@Injectable()
export class ServiceShutdown {
  private readonly controller = new AbortController();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get started(): boolean {
    return this.controller.signal.aborted;
  }

  begin(): void {
    this.controller.abort();
  }
}

/** Every service started by `startService` has it, so any provider can inject `ServiceShutdown`. */
@Global()
@Module({ providers: [ServiceShutdown], exports: [ServiceShutdown] })
export class ServiceShutdownModule {}
