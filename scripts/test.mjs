// `npm test`: every test of the project against the real Postgres, RabbitMQ and Redis, in three
// steps (static checks and builds, each project's unit and integration tests, end-to-end), then
// one closing line with the counts. Test databases and broker names are the tests' own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { requireBrowser } from './lib/browser.mjs';
import { requireDeployTools } from './lib/deploy-tools.mjs';
import { nx, nxEnv as env, requireLocalServices, root } from './lib/workspace.mjs';

const results = join(root, 'test-results');
await requireLocalServices('The tests');
env.CHROMIUM_PATH = requireBrowser((line) => process.stdout.write(`${line}\n`));
requireDeployTools((line) => process.stdout.write(`${line}\n`));

rmSync(results, { recursive: true, force: true });
const steps = [
  ['lint, typecheck and build', ['run-many', '-t', 'lint', 'typecheck', 'build', '--parallel=2']],
  ['unit and integration tests', ['run-many', '-t', 'test', '--parallel=2']],
  ['end-to-end tests', ['run', 'e2e:e2e']],
];
let failedStep;
for (const [label, args] of steps) {
  process.stdout.write(`\n=== ${label}\n`);
  const run = spawnSync(process.execPath, [nx, ...args, '--output-style=stream'], { cwd: root, env, stdio: 'inherit' });
  if (run.status !== 0) {
    failedStep = label;
    break;
  }
}

let passed = 0;
let failed = 0;
if (existsSync(results)) {
  for (const file of readdirSync(results).filter((name) => name.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(join(results, file), 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
  }
}
if (failedStep) {
  process.stdout.write(`\n${failedStep} failed\n`);
  if (failed === 0) failed = 1;
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failedStep ? 1 : 0);
