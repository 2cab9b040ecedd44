// `npm test`: every test of the project against the real Postgres, RabbitMQ and Redis, in three
// steps (static checks and builds, each project's unit and integration tests, end-to-end), then
// one closing line with the counts. Test databases and broker names are the tests' own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = join(root, 'test-results');
const nx = join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

function reachable(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.end(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const missing = [];
for (const [name, port] of [['PostgreSQL', 5432], ['RabbitMQ', 5672], ['Redis', 6379]]) if (!(await reachable(port))) missing.push(`${name} (127.0.0.1:${port})`);
if (missing.length > 0) {
  process.stderr.write(`The tests need ${missing.join(', ')}; start ${missing.length > 1 ? 'them' : 'it'} first (see README).\n`);
  process.exit(1);
}

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
