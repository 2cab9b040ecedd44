import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SMSQ_VERSION } from '../version.js';
import { HealthController } from './health.controller.js';
import type { Liveness, LivenessReport } from './liveness.js';
import type { Readiness } from './readiness.js';
import type { ServiceMetrics } from './metrics.js';

function controllerWith(report: LivenessReport) {
  const reply = { statusCode: 200, status(code: number) { this.statusCode = code; return this; } };
  const sut = new HealthController({} as Readiness, { report: () => report } as unknown as Liveness, {} as ServiceMetrics);
  return { sut, reply };
}

describe(HealthController.name, () => {
  it("answers /healthz 200 with smsq's version while the process can heal by itself", () => {
    const { sut, reply } = controllerWith({ alive: true });

    expect(sut.alive(reply as unknown as FastifyReply)).toEqual({ status: 'ok', version: SMSQ_VERSION });
    expect(reply.statusCode).toBe(200);
  });

  it('answers 503 with what is stuck, and the version, when it asks to be restarted', () => {
    const { sut, reply } = controllerWith({ alive: false, stuck: { database: 'failing for 61 s while it answers a fresh connection: timeout' } });

    expect(sut.alive(reply as unknown as FastifyReply)).toEqual({ status: 'stuck', version: SMSQ_VERSION, alive: false, stuck: { database: 'failing for 61 s while it answers a fresh connection: timeout' } });
    expect(reply.statusCode).toBe(503);
  });
});
