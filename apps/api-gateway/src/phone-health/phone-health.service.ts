import { Inject, Injectable } from '@nestjs/common';
import { Patterns, refuseUnboundTokenIn, type Ok, type PhoneHealthReportCommand } from '@smsq/contracts';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';
import type { WorkerTokenHolder } from '../identity/worker-tokens.repository.js';
import type { PhoneHealthReport } from './phone-health-request.js';

/**
 * A phone's or gateway's health, recorded by dispatch on the phone its token is bound to. An
 * unbound Profile B token serves many gateways and names none, so its report is taken and kept nowhere.
 */
@Injectable()
export class PhoneHealthService {
  constructor(
    private readonly config: GatewayConfig,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
  ) {}

  async report(holder: WorkerTokenHolder, report: PhoneHealthReport): Promise<Ok> {
    if (holder.phoneId === null) {
      refuseUnboundTokenIn(this.config.profile);
      return { ok: true };
    }
    const command: PhoneHealthReportCommand = { phoneId: holder.phoneId, ...report };
    await this.dispatch.send<Ok>(Patterns.dispatch.phoneHealthReport, command);
    return { ok: true };
  }
}
