import { Controller, Get, Header, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { metricsRegistry, ServiceMetrics } from './metrics.js';
import { Readiness, type ReadinessReport } from './readiness.js';

/** Liveness, readiness and Prometheus metrics, on every service's own HTTP port. */
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly serviceMetrics: ServiceMetrics,
  ) {}

  @Get('healthz')
  alive(): { status: 'ok' } {
    return { status: 'ok' };
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
