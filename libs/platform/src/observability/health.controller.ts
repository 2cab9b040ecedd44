import { Controller, Get, Header, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { metricsRegistry, ServiceMetrics } from './metrics.js';
import { Liveness, type LivenessReport } from './liveness.js';
import { Readiness, type ReadinessReport } from './readiness.js';
import { SMSQ_VERSION } from '../version.js';

/** Liveness, readiness and Prometheus metrics, on every service's own HTTP port. */
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly liveness: Liveness,
    private readonly serviceMetrics: ServiceMetrics,
  ) {}

  /** The process answers and can still heal by itself; 503 asks to be restarted. Either way it names smsq's version. */
  @Get('healthz')
  alive(@Res({ passthrough: true }) reply: FastifyReply): { status: 'ok'; version: string } | ({ status: 'stuck'; version: string } & LivenessReport) {
    const report = this.liveness.report();
    if (report.alive) return { status: 'ok', version: SMSQ_VERSION };
    reply.status(503);
    return { status: 'stuck', version: SMSQ_VERSION, ...report };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessReport> {
    const report = await this.readiness.report();
    reply.status(report.ready ? 200 : 503);
    return report;
  }

  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return this.serviceMetrics.exposition();
  }
}
