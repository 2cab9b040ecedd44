// `npm test`: every test of the project against the real Postgres, RabbitMQ and Redis, in four
// steps (builds, static checks, every project's unit and integration tests, end-to-end), then
// one closing line with the counts. Test databases and broker names are the tests' own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { requireBrowser } from './lib/browser.mjs';
import { requireDeployTools } from './lib/deploy-tools.mjs';
import { nx, nxEnv as env, requireLocalServices, root } from './lib/workspace.mjs';

const results = join(root, 'test-results');
await requireLocalServices('The tests');
// What the machine lacks is installed while the builds and the static checks run, which need none
// of it (apt.mjs runs the installs one after another, in this order): the deploy checks' tools
// (the unit step's deploy/ specs), then the browser (end to end).
const say = (line) => process.stdout.write(`${line}\n`);
const deployTools = requireDeployTools(say);
const browser = requireBrowser(say).then((path) => void (env.CHROMIUM_PATH = path));

rmSync(results, { recursive: true, force: true });
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const nxRun = (...args) => [nx, ...args, '--output-style=stream'];
const tsc = (project) => [bin('typescript', 'bin/tsc'), '-p', project];
const steps = [
  // Generates the Prisma clients and the API client's types, which the checks and tests import.
  ['build', [nxRun('run-many', '-t', 'build', '--parallel=2')]],
  // The same checks as every project's `lint` and `typecheck` targets, in one process each rather
  // than one per project: eslint over every project's folder at once, and one type check of every
  // Node project together (tsconfig.all.json: their settings are one and the same), so the
  // libraries and the declarations they all read are checked once, not once per project. The
  // dashboard's web app and the e2e specs have settings of their own.
  ['lint and typecheck', [[bin('eslint', 'bin/eslint.js'), 'apps', 'libs', 'deploy', 'e2e', 'bench'], tsc('tsconfig.all.json'), tsc('apps/dashboard-web/tsconfig.json'), tsc('e2e/tsconfig.json')]],
  // Every project's tests in one vitest run (vitest.config.ts): the same tests as each project's
  // `test` target, their files sharing the workers.
  ['unit and integration tests', [[bin('vitest', 'vitest.mjs'), 'run']], deployTools],
  ['end-to-end tests', [nxRun('run', 'e2e:e2e')], browser],
];

/** Runs each command, two at a time (the machine's two cores); answers whether all succeeded. */
async function runAll(commands) {
  const queue = [...commands];
  let ok = true;
  const lane = async () => {
    for (let args = queue.shift(); args; args = queue.shift()) {
      const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
      const [code] = await once(child, 'exit');
      if (code !== 0) ok = false;
    }
  };
  await Promise.all([lane(), lane()]);
  return ok;
}

/**
 * The machine's CPU time so far (Linux's /proc/stat, in ticks), busy and in all; undefined where
 * there is none. How busy a step kept the cores tells a slow machine from a step that waits.
 */
function cpuTicks() {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const all = ticks.reduce((sum, tick) => sum + tick, 0);
    return { busy: all - ticks[3] - ticks[4], all };
  } catch {
    return undefined;
  }
}

const busyShare = (before, after) => (before && after && after.all > before.all ? `, the cores ${Math.round((100 * (after.busy - before.busy)) / (after.all - before.all))} % busy` : '');

let failedStep;
for (const [label, commands, needs] of steps) {
  await needs;
  process.stdout.write(`\n=== ${label}\n`);
  const started = Date.now();
  const cpuBefore = cpuTicks();
  const ok = await runAll(commands);
  process.stdout.write(`=== ${label}: ${Math.round((Date.now() - started) / 1000)} s${busyShare(cpuBefore, cpuTicks())}\n`);
  if (!ok) {
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
