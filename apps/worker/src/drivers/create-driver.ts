import { join } from 'node:path';
import type { WorkerConfig } from '../config/worker-config.js';
import type { WorkerLog } from '../logging/worker-log.js';
import { HttpGatewayDriver } from './http/http-gateway-driver.js';
import type { PhoneDriver } from './phone-driver.js';
import { SmsGateDriver } from './smsgate/smsgate-driver.js';
import { TERMUX_DEFAULTS, TermuxDriver } from './termux/termux-driver.js';

/** The driver `WORKER_DRIVER` (or the paired phone) names. */
export function createDriver(config: WorkerConfig, log: WorkerLog): PhoneDriver {
  switch (config.driver) {
    case 'http':
      return new HttpGatewayDriver(config.sendTimeoutMs, log);
    case 'termux':
      return new TermuxDriver({
        ...TERMUX_DEFAULTS,
        commandTimeoutMs: config.termuxTimeoutMs,
        // Termux:API counts SIM slots from 0; smsq's WORKER_SIM counts from 1, as the phone's settings do.
        ...(config.simNumber === undefined ? {} : { simSlot: config.simNumber - 1 }),
        stateFile: join(config.stateDir, 'termux-replies.json'),
        journalFile: join(config.stateDir, 'termux-journal.json'),
        log,
      });
    case 'smsgate': {
      const { user, password, deliveryReports, ttlMarginMs, inboxPollIntervalMs, webhook } = config.smsgate;
      return new SmsGateDriver({
        user,
        password,
        ...(config.gatewayUrl === undefined ? {} : { gatewayUrl: config.gatewayUrl }),
        ...(config.simNumber === undefined ? {} : { simNumber: config.simNumber }),
        withDeliveryReport: deliveryReports,
        ttlMarginMs,
        inboxPollIntervalMs,
        pollIntervalMs: 1_000,
        requestTimeoutMs: config.sendTimeoutMs,
        ...(webhook === undefined ? {} : { webhook: { listenHost: webhook.listenHost, listenPort: webhook.listenPort, publicUrl: webhook.publicUrl, ...(webhook.signingKey === undefined ? {} : { signingKey: webhook.signingKey }) } }),
        stateFile: join(config.stateDir, 'smsgate-replies.json'),
        log,
      });
    }
  }
}
