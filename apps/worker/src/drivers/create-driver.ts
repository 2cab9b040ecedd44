import type { WorkerConfig } from '../config/worker-config.js';
import type { WorkerLog } from '../logging/worker-log.js';
import { HttpGatewayDriver } from './http/http-gateway-driver.js';
import type { PhoneDriver } from './phone-driver.js';

/** The driver `WORKER_DRIVER` (or the paired phone) names. */
export function createDriver(config: WorkerConfig, log: WorkerLog): PhoneDriver {
  void log;
  switch (config.driver) {
    case 'http':
      return new HttpGatewayDriver(config.sendTimeoutMs);
    default:
      throw new Error(`the ${config.driver} driver is not built in yet`);
  }
}
