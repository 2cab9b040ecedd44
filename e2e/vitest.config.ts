import { projectTestConfig } from '../vitest.shared.js';

// Each suite starts a whole stack of processes; two at a time is what two cores carry.
export default projectTestConfig({ include: ['src/**/*.e2e.spec.ts'], testTimeout: 60_000, maxWorkers: 2 });
