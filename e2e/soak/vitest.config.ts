import { projectTestConfig } from '../../vitest.shared.js';

// `npm run soak` (run from e2e/): the soak alone, up to SOAK_MINUTES plus its setting up and settling. Not part of `npm test`.
const minutes = Number(process.env['SOAK_MINUTES'] ?? '30');
const config = projectTestConfig({ include: ['src/**/*.soak.spec.ts'], testTimeout: (minutes + 20) * 60_000, maxWorkers: 1 });
config.test!.reporters = ['default'];
export default config;
