import { projectTestConfig } from '../../vitest.shared.js';

// Pure helpers only: the node environment (no DOM) is enough.
export default projectTestConfig({ include: ['src/**/*.spec.ts'] });
