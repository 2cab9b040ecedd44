// `npm run bench [-- --quick] [-- --profile] [-- --only=queue,bulk,normal,rest,smpp,deliver,batched,failover,rules,growth,conversations,sealed]`: starts the built services
// under a database and broker namespace of its own, runs the scenarios of docs/performance.md
// against them, against pgbench on the same Postgres and (create-task) against a one-process
// implementation of its own, writes bench/results/<timestamp>.json
// and the results block of docs/performance.md, and drops what it created.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSettings, TARGETS } from './bench-settings.js';
import { BenchStack } from './bench-stack.js';
import { conversationsScenario } from './conversations-scenario.js';
import { formatProfile, summariseProfileDir } from './cpu-profile.js';
import { failoverScenario } from './failover-scenario.js';
import { checkTargets, printSummary, updatePerformanceDoc, writeResults, type BenchResults } from './report.js';
import { rulesScenario } from './rules-scenario.js';
import { sealedScenario } from './sealed-scenario.js';
import { smppScenario } from './smpp-scenario.js';
import {
  bulkScenario,
  deliverScenario,
  fixedRateScenario,
  growthScenario,
  normalLoadScenario,
  prepareFixture,
  queueScenario,
  restScenario,
  togetherScenario,
  type QueueResult,
} from './scenarios.js';

type Scenario = 'queue' | 'bulk' | 'normal' | 'rest' | 'smpp' | 'deliver' | 'batched' | 'failover' | 'rules' | 'growth' | 'conversations' | 'sealed';
const ALL: Scenario[] = ['queue', 'bulk', 'normal', 'rest', 'smpp', 'deliver', 'batched', 'failover', 'rules', 'growth', 'conversations', 'sealed'];

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick') || process.env['SMSQ_BENCH_QUICK'] === '1';
const profile = args.includes('--profile');
const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',') as Scenario[] | undefined;
const unknown = (only ?? []).filter((name) => !ALL.includes(name));
if (unknown.length > 0) {
  process.stderr.write(`unknown scenario(s) ${unknown.join(', ')}; known: ${ALL.join(', ')}\n`);
  process.exit(2);
}
const scenarios = new Set<Scenario>(only ?? ALL);

// The admin clients' framework logging would interleave with the bench's own lines.
Logger.overrideLogger(false);
const settings = benchSettings(quick);
const startedAt = new Date().toISOString();
const loadAverageAtStart = loadavg();
const cpuProfileDir = profile ? mkdtempSync(join(tmpdir(), 'smsq-bench-profiles-')) : undefined;

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
log(`${settings.mode} run of ${[...scenarios].join(', ')}; starting the services`);
const stackOptions = {
  root: ROOT,
  databaseServer: process.env['SMSQ_BENCH_DATABASE_SERVER'] ?? 'postgresql://postgres@127.0.0.1:5432',
  amqpUrl: process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
};
const stack = await BenchStack.start({ ...stackOptions, cpuProfileDir, smpp: scenarios.has('smpp') });

// Ctrl-C or a CI timeout still stops the services and drops the bench's database.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the services and dropping the bench database`);
    void stack.stop().finally(() => process.exit(130));
  });
}

let failed = false;
const partial: Partial<Omit<BenchResults, 'startedAt' | 'finishedAt' | 'settings' | 'machine' | 'targets'>> = {};
let postgres = '';
try {
  postgres = ((await stack.sql.query<{ version: string }>('SELECT version()')).rows[0]?.version ?? '').split(' on ')[0] ?? '';
  const fixture = await prepareFixture(stack, settings);
  log(`${settings.clients} clients, ${fixture.workerTokens.length} worker tokens ready`);
  let queue: QueueResult | undefined;
  // Half load is half of what the one-process implementation reached in scenario 1b, so `normal` runs `queue` first.
  if (scenarios.has('queue') || scenarios.has('normal')) partial.queue = queue = await queueScenario(stack, settings, fixture);
  if (scenarios.has('bulk')) partial.bulk = await bulkScenario(stack, settings, fixture);
  if (scenarios.has('normal') && queue) partial.normalLoad = await normalLoadScenario(stack, settings, fixture, queue.oneProcess.implementation.perSecond);
  if (scenarios.has('normal')) partial.fixedRateLoad = await fixedRateScenario(stack, settings, fixture, TARGETS.fixedRatePerS);
  if (scenarios.has('rest')) partial.rest = await restScenario(stack, settings, fixture);
  if (scenarios.has('smpp')) partial.smpp = await smppScenario(stack, settings);
  if (scenarios.has('deliver')) partial.deliver = await deliverScenario(stack, settings, fixture);
  if (scenarios.has('batched')) partial.deliverBatched = await deliverScenario(stack, settings, fixture, 'batch');
  if (scenarios.has('failover')) partial.failover = await failoverScenario(stack, settings, fixture);
  if (scenarios.has('rules')) partial.rules = await rulesScenario(stack, settings, fixture);
  if (scenarios.has('growth')) partial.growth = await growthScenario(stack, settings, fixture);
  if (scenarios.has('conversations')) partial.conversations = await conversationsScenario(stack, fixture, settings.conversations);
  if (scenarios.has('sealed')) partial.sealed = await sealedScenario(settings.sealed, log);
} catch (error) {
  failed = true;
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n${stack.recentLogs()}`);
} finally {
  log('stopping the services and dropping the bench database');
  await stack.stop();
}
if (!failed && scenarios.has('queue')) {
  try {
    partial.together = await togetherScenario(stackOptions, settings);
  } catch (error) {
    failed = true;
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
}

const profiles = cpuProfileDir ? summariseProfileDir(cpuProfileDir) : undefined;
for (const summary of profiles ?? []) process.stdout.write(`\n${formatProfile(summary)}\n`);
if (cpuProfileDir) log(`CPU profiles kept in ${cpuProfileDir} (open them in Chrome DevTools or speedscope)`);

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
  memoryMb: Math.round(totalmem() / 1024 / 1024),
  node: process.versions.node,
  postgres,
  loadAverageAtStart,
};
const { queue, bulk, normalLoad, fixedRateLoad, rest, smpp, deliver, deliverBatched, failover, rules, growth, conversations, sealed, together } = partial;
if (!failed && queue && bulk && normalLoad && fixedRateLoad && rest && smpp && deliver && deliverBatched && failover && rules && growth && conversations && sealed && together) {
  const results: BenchResults = {
    startedAt,
    finishedAt: new Date().toISOString(),
    settings,
    machine,
    queue,
    bulk,
    normalLoad,
    fixedRateLoad,
    rest,
    smpp,
    deliver,
    deliverBatched,
    failover,
    rules,
    growth,
    conversations,
    sealed,
    together,
    targets: checkTargets({ settings, queue, bulk, deliver, deliverBatched, failover, rules, growth, normalLoad, rest, smpp, conversations, sealed, together }),
    profiles,
  };
  const file = writeResults(ROOT, results);
  updatePerformanceDoc(ROOT, results, file);
  printSummary(results);
  log(`results written to ${file} and docs/performance.md`);
} else {
  process.stdout.write(`\n${JSON.stringify({ startedAt, settings: settings.mode, machine, ...partial }, null, 2)}\n`);
  if (!failed) log('a partial run: printed only, neither bench/results nor docs/performance.md written');
}
process.exit(failed ? 1 : 0);
