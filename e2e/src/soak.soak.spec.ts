import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, it } from 'vitest';
import type { RequestTally } from './support/chaos/chaos-http.js';
import { runChaos, type Fault, type Link } from './support/chaos/chaos-run.js';
import type { InfraName } from './support/private-infra.js';
import type { MajorGc } from './support/major-gc.js';
import type { ProcessName, Stack } from './support/stack.js';
import { soakPlot } from './support/chaos/soak-plot.js';
import { DashboardReader, registerWebhooks, WebhookReceiver } from './support/chaos/soak-load.js';
import { retentionAges, Sampler, SOAK_PROCESSES, type RetentionAges } from './support/chaos/soak-samples.js';
import { printSoak, soakFigures, type SoakRules } from './support/chaos/soak-verdict.js';

const minutes = Number(process.env['SOAK_MINUTES'] ?? '30');
/** Four minutes in a full soak: the quiet range is read from their last two, once retention prunes and webhook retries run as they do all along (docs/decisions.md). */
const quietS = Number(process.env['SOAK_QUIET_S'] ?? (minutes >= 20 ? '240' : '60'));
/** No fault in the run's last minutes, so memory is read at its end in the same state as at the window's start, not in a fault's spike. */
const coolS = Number(process.env['SOAK_COOL_S'] ?? (minutes >= 20 ? '120' : '0'));
const output = process.env['SOAK_OUTPUT'];
const FAULT_EVERY_S = 60;
const SAMPLE_EVERY_MS = 5_000;
const PROBE_EVERY_MS = 200;
/** Retention as the soak runs it (the services' SMSQ_RETENTION_*). */
const RETENTION = { outboxS: 120, webhookS: 120, intervalS: 15, marginS: 30 };

const faultCount = Math.max(1, Math.floor((minutes * 60 - quietS - coolS) / FAULT_EVERY_S));
const scheduleS = quietS + faultCount * FAULT_EVERY_S + coolS;
/** The last 20 minutes of the schedule; in a short check, its last two thirds. */
const memoryWindowS = Math.min(20 * 60, Math.floor((scheduleS * 2) / 3));

const rules: SoakRules = {
  memoryWindowMs: memoryWindowS * 1000,
  memoryGrowthLimit: 0.1,
  recoveryLimitMs: 30_000,
  // 100 answers (20 s of the probe's), so the rolling p99 is their second slowest: over 10 s (50
  // answers) it was the slowest, and under the quiet p99 only half the time with no fault at all.
  p99WindowMs: 20_000,
  p99AtLeast: 100,
  slowAtMost: 4,
  beforeFaultMs: 30_000,
  beforeFaultAtLeast: 50,
  quietWarmUpMs: quietS >= 240 ? 120_000 : 30_000,
  retention: RETENTION,
  plateauFactor: 1.25,
  plateauSlackRows: 100,
};

const KILLED: ProcessName[] = ['api-gateway', 'billing', 'dispatch', 'inbox', 'worker', 'dashboard'];
const RESTARTED: InfraName[] = ['redis', 'postgres', 'rabbitmq'];
const LINKS: Link[] = ['postgres', 'rabbitmq', 'redis', 'gateway'];

/**
 * One fault a minute, cycling kill, restart, latency, silence, reset, each over its own list of
 * targets. Kills take the first and second copy of each service in turn until the memory window
 * opens; inside it only second copies, so every service's first copy runs all through the window.
 */
function schedule(): Fault[] {
  const chosen = process.env['SOAK_FAULTS'];
  if (chosen) return chosenFaults(chosen);
  const faults: Fault[] = [];
  const counters = { kill: 0, restart: 0, latency: 0, silence: 0, reset: 0 };
  const windowOpensAt = scheduleS - memoryWindowS;
  for (let index = 0; index < faultCount; index++) {
    const startsAt = quietS + index * FAULT_EVERY_S;
    switch (index % 5) {
      case 0: {
        const n = counters.kill++;
        const service = KILLED[n % KILLED.length]!;
        const second = startsAt >= windowOpensAt - 5 || Math.floor(n / KILLED.length) % 2 === 1;
        faults.push({ kill: second ? (`${service}#2` as ProcessName) : service });
        break;
      }
      case 1:
        faults.push({ restart: RESTARTED[counters.restart++ % RESTARTED.length]! });
        break;
      case 2:
        faults.push({ latency: LINKS[counters.latency++ % LINKS.length]!, forMs: 15_000 });
        break;
      case 3:
        faults.push({ silence: LINKS[counters.silence++ % LINKS.length]!, forMs: 20_000 });
        break;
      default:
        faults.push({ reset: LINKS[counters.reset++ % LINKS.length]! });
    }
  }
  return faults;
}

/**
 * SOAK_FAULTS replays chosen faults in turn instead of the cycle, to study one recovery, e.g.
 * `silence:rabbitmq,restart:postgres`: kill:PROCESS, restart:INFRA, latency|silence|reset:LINK.
 */
function chosenFaults(list: string): Fault[] {
  const faults = list.split(',').map((one): Fault => {
    const [kind, target] = one.trim().split(':') as [string, string];
    if (kind === 'kill') return { kill: target as ProcessName };
    if (kind === 'restart') return { restart: target as InfraName };
    if (kind === 'latency') return { latency: target as Link, forMs: 15_000 };
    if (kind === 'silence') return { silence: target as Link, forMs: 20_000 };
    if (kind === 'reset') return { reset: target as Link };
    throw new Error(`SOAK_FAULTS: ${one} is not kill:, restart:, latency:, silence: or reset: a target`);
  });
  return Array.from({ length: faultCount }, (_, index) => faults[index % faults.length]!);
}

/** `npm run soak`: SOAK_MINUTES (30) of steady load, two of every service, a fault a minute; the verdict and figures in SOAK_OUTPUT. */
it(`soak: ${minutes} min, two of every service, a fault every ${FAULT_EVERY_S} s; no violation, flat memory, latency back within 30 s, tables bounded`, async () => {
  const log = (line: string) => console.log(`[soak] ${line}`);
  const receiver = await WebhookReceiver.start(0.1);
  let sampler: Sampler | undefined;
  let stack: Stack | undefined;
  let loadStartedAt = 0;
  let scheduleEndedAt = 0;
  let ages: RetentionAges | undefined;
  let tally: RequestTally | undefined;
  const faults = schedule();
  log(`${faults.length} faults after ${quietS} s of quiet, then ${coolS} s of quiet; memory judged over the last ${memoryWindowS} s`);
  try {
    const report = await runChaos({
      faults,
      quietMs: quietS * 1000,
      faultEveryMs: FAULT_EVERY_S * 1000,
      coolDownMs: coolS * 1000,
      // Postgres's default, as deploy/ runs it, not the chaos runs' 32 MB, which half an hour of tasks may outgrow (the fifth run slowed in its second half; the sampled database size tells).
      postgresSharedBuffers: '128MB',
      // Each major collection's line, with the heap it left: what a leak grows (memory is judged on it).
      nodeFlags: ['--trace-gc', '--trace-gc-ignore-scavenger'],
      clients: 3,
      claimTimeoutS: 14,
      recoveryTimeoutMs: 120_000,
      replicas: true,
      dashboards: true,
      probeEveryMs: PROBE_EVERY_MS,
      // Steady, and well under what two cores carry (docs/decisions.md, "The soak's load"): a soak is about time, not the most load the machine takes.
      load: { createConcurrency: 1, pauseMs: 600, deliveryPauseMs: 150, bulkShare: 0.2, bulkSize: 10 },
      env: {
        SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true',
        SMSQ_RETENTION_OUTBOX_S: String(RETENTION.outboxS),
        SMSQ_RETENTION_WEBHOOK_S: String(RETENTION.webhookS),
        SMSQ_RETENTION_INTERVAL_S: String(RETENTION.intervalS),
      },
      log,
      logDir: process.env['SOAK_LOG_DIR'],
      onLoad: async (run) => {
        loadStartedAt = Date.now();
        tally = run.tally;
        stack = run.stack;
        await registerWebhooks(run.baseUrl, run.clients, receiver.url, run.tally);
        const reader = await DashboardReader.start(run.dashboardUrls, run.tally, 1_000);
        sampler = new Sampler(run.stack, run.databaseUrl, SAMPLE_EVERY_MS);
        return {
          stop: async () => {
            scheduleEndedAt = Date.now();
            await sampler!.stop();
            await reader.stop();
            ages = await retentionAges(run.databaseUrl);
          },
        };
      },
    });
    const figures = soakFigures({
      report,
      rules,
      minutes,
      faultEveryS: FAULT_EVERY_S,
      probeEveryMs: PROBE_EVERY_MS,
      probeTimings: tally!.timings['probe-create-task'] ?? [],
      failures: tally!.failures,
      loadStartedAt,
      samples: sampler!.samples,
      majorGcs: Object.fromEntries(SOAK_PROCESSES.map((name): [string, MajorGc[]] => [name, stack!.majorGcsOf(name)])),
      sampleEveryMs: SAMPLE_EVERY_MS,
      scheduleEndedAt,
      ages: ages!,
      webhooks: { ...receiver.counts, distinctEvents: receiver.distinctEvents },
    });
    if (output) {
      mkdirSync(dirname(output), { recursive: true });
      writeFileSync(output, `${JSON.stringify(figures, null, 1)}\n`);
      writeFileSync(output.replace(/\.json$/, '.svg'), soakPlot(figures));
    }
    // Every answer of the probe, to study a recovery second by second (not committed: it is large).
    const probeOutput = process.env['SOAK_PROBE_OUTPUT'];
    if (probeOutput) writeFileSync(probeOutput, `${JSON.stringify({ faults: figures.faults, timings: tally!.timings })}\n`);
    console.log(printSoak(figures));
    expect(figures.verdict.failures).toEqual([]);
  } finally {
    await receiver.close();
  }
});
