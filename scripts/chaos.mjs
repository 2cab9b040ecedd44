// `npm run chaos`: builds the services, then runs the long chaos runs (e2e/src/chaos-long.chaos.spec.ts)
// against a private Postgres, RabbitMQ and Redis of their own: load from several clients while every
// process is SIGKILLed and the three are restarted, then the checks; once with one of each service,
// once with two. The figures are printed and written to docs/chaos-last-run.json and
// docs/chaos-replicas-last-run.json. CHAOS_ROUNDS (default 2) sets how often every fault happens.
import { join } from 'node:path';
import { buildThenRunE2e, nxEnv, root } from './lib/workspace.mjs';

const env = {
  ...nxEnv,
  CHAOS_OUTPUT: process.env.CHAOS_OUTPUT ?? join(root, 'docs', 'chaos-last-run.json'),
  CHAOS_REPLICAS_OUTPUT: process.env.CHAOS_REPLICAS_OUTPUT ?? join(root, 'docs', 'chaos-replicas-last-run.json'),
  CHAOS_LOG_DIR: process.env.CHAOS_LOG_DIR ?? join(root, '.smsq', 'chaos-logs'),
};
const projects = 'api-gateway,billing,dispatch,inbox,worker,gateway-sim,admin';
buildThenRunE2e(projects, join('chaos', 'vitest.config.ts'), env);
