import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { joinProcess, processLabel } from './process-services.js';

/** One Prometheus registry per process, labelled with the name of the service (or services) it runs. */
export const metricsRegistry = new Registry();

let collecting = false;

/** Process metrics, labelled with the service, or with every service sharing the process (`billing+dispatch+…`). */
export function startDefaultMetrics(service: string): void {
  joinProcess(service);
  metricsRegistry.setDefaultLabels({ service: processLabel() });
  if (collecting) return;
  collecting = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'smsq_' });
}

export const handledMessages = new Counter({
  name: 'smsq_messages_handled_total',
  help: 'Broker messages handled, by pattern and outcome',
  labelNames: ['pattern', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'smsq_http_request_duration_seconds',
  help: 'Public HTTP requests, by route and status',
  labelNames: ['route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});
