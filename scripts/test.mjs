// `npm test`: every test of the project against the real Postgres, RabbitMQ and Redis, in four
// steps (builds; end-to-end beside the static checks; every project's unit and integration tests),
// then one closing line with the counts. Test databases and broker names are the tests' own.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { requireBrowser } from './lib/browser.mjs';
import { requireDeployTools } from './lib/deploy-tools.mjs';
import { requireKannel } from './lib/kannel.mjs';
import { exitAfterOutput, preflight } from './lib/servers.mjs';
import { nx, nxEnv as env, root } from './lib/workspace.mjs';

const results = join(root, 'test-results');
// The servers the tests use (their PostgreSQL is SMSQ_TEST_DATABASE_SERVER's, as @smsq/testing reads it); a stopped local one is started.
const testDatabase = { variable: 'SMSQ_TEST_DATABASE_SERVER', fallback: 'postgresql://postgres@127.0.0.1:5432', example: 'postgresql://smsq:secret@db.example.com:5432', path: '' };
if (!(await preflight('npm test', env, { startStopped: true, servers: { postgres: testDatabase } }))) await exitAfterOutput(1);
// What the machine lacks is installed while the first steps run, which need none of it (apt.mjs
// runs the installs one after another, in this order): the browser and Kannel (end to end, which
// starts right after the build; without Kannel that step fails and says what to install), then the
// deploy checks' tools (the unit step's deploy/ specs; without them that step fails and says what
// to install, once the end-to-end tests are over).
const say = (line) => process.stdout.write(`${line}\n`);
const browser = requireBrowser(say).then((path) => void (env.CHROMIUM_PATH = path));
const kannel = requireKannel(say).then((dir) => void (env.KANNEL_BIN_DIR = dir));
const endToEndTools = Promise.all([browser, kannel]);
const deployTools = requireDeployTools(say);
// Awaited by their steps only, which a failed build never runs; until then a failure must not count as unhandled.
for (const tools of [endToEndTools, deployTools]) tools.catch(() => undefined);

rmSync(results, { recursive: true, force: true });
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const nxRun = (...args) => [nx, ...args, '--output-style=stream'];
const tsc = (project) => [bin('typescript', 'bin/tsc'), '-p', project];
const build = { label: 'build', commands: [nxRun('run-many', '-t', 'build', '--parallel=2')] };
// The same checks as every project's `lint` and `typecheck` targets, in one process each rather
// than one per project: eslint over every project's folder at once, and one type check of every
// Node project together (tsconfig.all.json: their settings are one and the same), so the
// libraries and the declarations they all read are checked once, not once per project. The
// dashboard's web app and the e2e specs have settings of their own.
const checks = {
  label: 'lint and typecheck',
  prefix: 'checks',
  commands: [
    [bin('eslint', 'bin/eslint.js'), 'apps', 'libs', 'deploy', 'e2e', 'bench'],
    tsc('tsconfig.all.json'),
    tsc('apps/dashboard-web/tsconfig.json'),
    tsc('e2e/tsconfig.json'),
    // The reference pages generated from the code (npm run docs) are as the code is now.
    [join(root, 'scripts', 'docs-reference.mjs'), '--check'],
  ],
};
// Every project's tests in one vitest run (vitest.config.ts): the same tests as each project's
// `test` target, their files sharing the workers.
const unit = { label: 'unit and integration tests', commands: [[bin('vitest', 'vitest.mjs'), 'run']], needs: deployTools };
const endToEnd = { label: 'end-to-end tests', commands: [nxRun('run', 'e2e:e2e')], needs: endToEndTools };

/** Runs each command, two at a time (the machine's two cores), its lines prefixed when `prefix` is set; answers whether all succeeded. */
async function runAll(commands, prefix) {
  const queue = [...commands];
  let ok = true;
  const lane = async () => {
    for (let args = queue.shift(); args; args = queue.shift()) {
      const child = spawn(process.execPath, args, { cwd: root, env, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
      if (prefix) for (const stream of [child.stdout, child.stderr]) prefixLines(stream, prefix);
      // 'close', not 'exit': a piped child's last lines may still be on their way when it exits.
      const [code] = await once(child, 'close');
      if (code !== 0) ok = false;
    }
  };
  await Promise.all([lane(), lane()]);
  return ok;
}

/** Copies `stream`'s lines to stdout, each after `prefix: `, so that a step running beside another still says which wrote what. */
function prefixLines(stream, prefix) {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    if (lines.length > 0) process.stdout.write(lines.map((line) => `${prefix}: ${line}\n`).join(''));
  });
  stream.on('end', () => partial && process.stdout.write(`${prefix}: ${partial}\n`));
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

const failedSteps = [];
/** Runs `step` once what it needs is there; answers whether it passed. */
async function runStep({ label, commands, prefix, needs }) {
  const missing = await needs?.then(() => undefined, (error) => error.message);
  if (missing) {
    process.stdout.write(`\n=== ${label}: not run. ${missing}\n`);
    failedSteps.push(label);
    return false;
  }
  process.stdout.write(`\n=== ${label}\n`);
  const started = Date.now();
  const cpuBefore = cpuTicks();
  const ok = await runAll(commands, prefix);
  process.stdout.write(`=== ${label}: ${Math.round((Date.now() - started) / 1000)} s${busyShare(cpuBefore, cpuTicks())}\n`);
  if (!ok) failedSteps.push(label);
  return ok;
}

// Once built, the end-to-end tests run beside the static checks: they wait on timers as much as on
// the cores (faults that last, phones going silent, the chaos runs' quiet spells), and the checks,
// which time nothing, fill those waits. The unit tests run alone after them, whatever the two
// answered, so that the closing line counts every test: beside the end-to-end tests a busy machine
// made a chaos run fail (docs/decisions.md, "The unit tests beside the end-to-end tests, tried").
// A step's "busy" figure is the machine's, so beside another step it counts both.
if (await runStep(build)) {
  await Promise.all([runStep(endToEnd), runStep(checks)]);
  await runStep(unit);
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
if (failedSteps.length > 0) {
  process.stdout.write(`\n${failedSteps.join(', ')} failed\n`);
  if (failed === 0) failed = 1;
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failedSteps.length > 0 ? 1 : 0);
