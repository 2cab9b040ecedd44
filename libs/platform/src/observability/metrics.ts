import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { joinProcess, processLabel } from './process-services.js';

/**
 * The process's own metrics (memory, CPU, event loop), labelled with the service it runs, or with
 * every service sharing it (`billing+dispatch+…`). Each service's /metrics shows them beside its own.
 */
export const metricsRegistry = new Registry();

let collecting = false;

export function startDefaultMetrics(service: string): void {
  joinProcess(service);
  metricsRegistry.setDefaultLabels({ service: processLabel() });
  if (collecting) return;
  collecting = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'smsq_' });
}

/** Seconds; from a millisecond answer on a loopback to a request that ran into its timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * One service's metrics, in a registry of its own: services sharing a process (npm start) each
 * show only what they counted, so summing every service's /metrics never counts an event twice.
 * Names and labels are documented in docs/guide/monitoring.md; keep them stable.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly handledMessages = new Counter({
    name: 'smsq_messages_handled_total',
    help: 'Broker messages handled, by pattern and outcome (answered, refused, dead-lettered)',
    labelNames: ['pattern', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly httpRequestDuration = new Histogram({
    name: 'smsq_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route template (unmatched for no route) and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly brokerRequestDuration = new Histogram({
    name: 'smsq_broker_request_duration_seconds',
    help: 'Requests this service sent over the broker until their answer, by pattern and outcome (ok, refused, unavailable)',
    labelNames: ['pattern', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly prunedRows = new Counter({
    name: 'smsq_retention_pruned_rows_total',
    help: 'Rows deleted by retention once kept for their period (SMSQ_RETENTION_*, SMSQ_TASK_RETENTION_DAYS), by table',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
  }

  /** Labels every metric of the service with its profile as well, once its configuration is read. */
  labelWithProfile(profile: string): void {
    this.registry.setDefaultLabels({ service: this.service, profile });
  }

  /** What /metrics answers: the process's metrics, then the service's. */
  async exposition(): Promise<string> {
    return `${await metricsRegistry.metrics()}\n${await this.registry.metrics()}`;
  }
}

const servicesMetrics = new Map<string, ServiceMetrics>();

/** The metrics of `service` in this process, created on first use. */
export function metricsOf(service: string): ServiceMetrics {
  let metrics = servicesMetrics.get(service);
  if (!metrics) servicesMetrics.set(service, (metrics = new ServiceMetrics(service)));
  return metrics;
}
