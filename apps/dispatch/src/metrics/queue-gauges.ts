import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { metricsOf } from '@smsq/platform';
import { Gauge } from 'prom-client';
import { PHONE_STATES } from '@smsq/contracts';
import { QueueSnapshotRepository, type DueBacklog, type PhonePoll, type PhoneStateCount, type SilentPhoneBacklog } from './queue-snapshot.repository.js';

/** Scrapes closer together than this (several Prometheus servers, a dashboard's refresh) share one read of the database. */
const SNAPSHOT_MAX_AGE_MS = 5_000;

interface QueueSnapshot {
  backlog: DueBacklog;
  phones: PhonePoll[];
  states: PhoneStateCount[];
  silent: SilentPhoneBacklog[];
  at: number;
}

/** The running dispatch's snapshot reader; the gauges are the process's, the reader the app's. */
let readSnapshot: (() => Promise<QueueSnapshot | undefined>) | undefined;

const registers = [metricsOf('dispatch').registry];

const dueTasks = new Gauge({
  name: 'smsq_tasks_due',
  help: `Tasks due and waiting for an active phone now (read at scrape time, at most every ${SNAPSHOT_MAX_AGE_MS / 1000} s; saturates at 100000)`,
  registers,
  async collect() {
    const snapshot = await readSnapshot?.();
    if (snapshot) this.set(snapshot.backlog.due);
  },
});

const oldestDueAge = new Gauge({
  name: 'smsq_tasks_due_oldest_age_seconds',
  help: 'How long the oldest due task has been due (0 when none is)',
  registers,
  async collect() {
    const snapshot = await readSnapshot?.();
    const oldest = snapshot?.backlog.oldestDueAt;
    if (snapshot) this.set(oldest ? Math.max(0, (snapshot.at - oldest.getTime()) / 1000) : 0);
  },
});

const phoneLastPoll = new Gauge({
  name: 'smsq_phone_last_poll_timestamp_seconds',
  help: 'Unix time of the last poll of each active phone or gateway that has polled (recorded at most every few seconds); the 10000 longest silent at most',
  labelNames: ['phone_id', 'kind'] as const,
  registers,
  async collect() {
    const snapshot = await readSnapshot?.();
    if (!snapshot) return;
    // A disabled phone's series goes.
    this.reset();
    for (const phone of snapshot.phones) this.set({ phone_id: String(phone.id), kind: phone.kind }, phone.lastSeenAt.getTime() / 1000);
  },
});

const phonesByState = new Gauge({
  name: 'smsq_phones',
  help: 'Phones and gateways by state: online (contact within SMSQ_PHONE_SILENT_S), silent, disabled',
  labelNames: ['state'] as const,
  registers,
  async collect() {
    const snapshot = await readSnapshot?.();
    if (!snapshot) return;
    for (const state of PHONE_STATES) this.set({ state }, snapshot.states.find((count) => count.state === state)?.phones ?? 0);
  },
});

const silentPhoneWaiting = new Gauge({
  name: 'smsq_silent_phone_waiting_tasks',
  help: 'Due tasks waiting for each enabled phone out of contact (absent for a phone in contact or with none waiting): what the SmsqPhoneSilent alert watches',
  labelNames: ['phone_id'] as const,
  registers,
  async collect() {
    const snapshot = await readSnapshot?.();
    if (!snapshot) return;
    // A phone back in contact, or with nothing waiting, loses its series.
    this.reset();
    for (const phone of snapshot.silent) this.set({ phone_id: String(phone.id) }, phone.waiting);
  },
});

/**
 * The queue as a scrape sees it: the due backlog, its oldest task and each phone's last poll,
 * read from dispatch's database when scraped, at most once per SNAPSHOT_MAX_AGE_MS and by
 * bounded statements. Every dispatch replica shows the same values: aggregate them with max(), not sum().
 */
@Injectable()
export class QueueGauges implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(QueueGauges.name);
  private latest: Promise<QueueSnapshot | undefined> | undefined;
  private latestAt = 0;
  private readonly read = () => this.snapshot();

  constructor(private readonly repository: QueueSnapshotRepository) {}

  onApplicationBootstrap(): void {
    readSnapshot = this.read;
  }

  onModuleDestroy(): void {
    if (readSnapshot === this.read) readSnapshot = undefined;
  }

  snapshot(): Promise<QueueSnapshot | undefined> {
    if (!this.latest || Date.now() - this.latestAt >= SNAPSHOT_MAX_AGE_MS) {
      this.latestAt = Date.now();
      this.latest = this.readNow();
    }
    return this.latest;
  }

  /** A database that does not answer leaves the gauges as they were; the scrape still answers. */
  private async readNow(): Promise<QueueSnapshot | undefined> {
    try {
      const [backlog, phones, states, silent] = await Promise.all([
        this.repository.dueBacklog(),
        this.repository.phonePolls(),
        this.repository.phoneStates(),
        this.repository.silentBacklogs(),
      ]);
      return { backlog, phones, states, silent, at: Date.now() };
    } catch (error) {
      this.logger.warn(`queue gauges not read: ${error instanceof Error ? error.message : String(error)}`);
      this.latestAt = 0;
      return undefined;
    }
  }
}

export const queueGauges = { dueTasks, oldestDueAge, phoneLastPoll, phonesByState, silentPhoneWaiting };
