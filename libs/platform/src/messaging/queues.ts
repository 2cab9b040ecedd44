import type { ServiceName } from '@smsq/contracts';

/** Every service consumes one durable queue, named under the namespace so instances can share a broker. */
export function queueName(namespace: string, service: ServiceName): string {
  return `${namespace}.${service}`;
}
