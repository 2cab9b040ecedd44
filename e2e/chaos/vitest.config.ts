import { projectTestConfig } from '../../vitest.shared.js';

// `npm run chaos` (run from e2e/): the long chaos run alone. Its counts are not part of `npm test`, so no JSON report.
const config = projectTestConfig({ include: ['src/**/*.chaos.spec.ts'], testTimeout: 3_600_000, maxWorkers: 1 });
config.test!.reporters = ['default'];
export default config;
