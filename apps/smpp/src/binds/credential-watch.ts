import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Patterns, type SmppCredentialActiveQuery } from '@smsq/contracts';
import { RepeatingJob, serviceClientToken, type ServiceClient } from '@smsq/platform';
import { BindRegistry } from './bind-registry.js';

/** How soon a revoked credential's (or a disabled client's) binds are closed. */
export const CREDENTIAL_CHECK_MS = 3_000;

/** Closes the binds of credentials revoked (or whose client was disabled) since they bound. */
@Injectable()
export class CredentialWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CredentialWatch.name);
  private readonly job = new RepeatingJob('credential watch', CREDENTIAL_CHECK_MS, () => this.checkOnce(), this.logger);

  constructor(
    private readonly registry: BindRegistry,
    @Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  async checkOnce(): Promise<void> {
    const ids = this.registry.credentialIds();
    if (ids.length === 0) return;
    const query: SmppCredentialActiveQuery = { ids };
    // The gateway away, binds stay as they are: nothing is known to have changed.
    const active = await this.gateway.send<number[]>(Patterns.gateway.smppCredentialActive, query);
    this.registry.closeAllBut(new Set(active), 'its credential was revoked or its client disabled');
  }
}
