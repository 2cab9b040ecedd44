// `npm run soak`: builds the services, then runs the soak (e2e/src/soak.soak.spec.ts): SOAK_MINUTES
// (default 30) of steady load on two of every service over a private Postgres, RabbitMQ and Redis,
// a fault every minute, then the verdict (docs/reliability.md, "30-minute soak"). The figures go to
// SOAK_OUTPUT (default docs/soak-last-run.json) and the plot beside it (.svg).
import { join } from 'node:path';
import { buildThenRunE2e, nxEnv, root } from './lib/workspace.mjs';

const env = {
  ...nxEnv,
  SOAK_OUTPUT: process.env.SOAK_OUTPUT ?? join(root, 'docs', 'soak-last-run.json'),
  SOAK_LOG_DIR: process.env.SOAK_LOG_DIR ?? join(root, '.smsq', 'soak-logs'),
};
const projects = 'api-gateway,billing,dispatch,inbox,dashboard,dashboard-web,worker,gateway-sim,admin';
buildThenRunE2e(projects, join('soak', 'vitest.config.ts'), env);
