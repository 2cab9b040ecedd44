import { Injectable } from '@nestjs/common';
import { GatewaySimConfig } from '../../config/gateway-sim-config.js';
import { SmsGateConfig } from '../smsgate-config.js';
import type { SendFailureKind } from './send-failure-kinds.js';

/** What `POST /sim/failure` sets and answers. */
export interface FailurePlan {
  /** Chance (0..1) that a send fails. */
  rate: number;
  kind: SendFailureKind;
}

/**
 * The phone's faults, from GATEWAY_SIM_FAILURE_RATE and GATEWAY_SIM_SMSGATE_FAILURE at start, and
 * changed while it runs by `POST /sim/failure`, so one of two stand-ins can lose its signal mid-test.
 */
@Injectable()
export class SendFaults {
  private current: FailurePlan;

  constructor(simConfig: GatewaySimConfig, config: SmsGateConfig) {
    this.current = { rate: simConfig.failureRate, kind: config.failureKind };
  }

  get plan(): FailurePlan {
    return { ...this.current };
  }

  set(plan: FailurePlan): void {
    this.current = { ...plan };
  }
}
