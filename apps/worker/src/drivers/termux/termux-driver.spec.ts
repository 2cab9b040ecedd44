import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordingLog, type RecordingLogger } from '../../testing/recording-log.js';
import { isRunning, TermuxStandIns, until } from '@smsq/testing';
import type { OutgoingSms, ReceivedSms } from '../phone-driver.js';
import { createCommandRunner, type CommandRunner } from './command-runner.js';
import { JOURNAL_RETENTION_MS } from './send-journal.js';
import { REPORT_MARGIN_MS, TermuxDriver, type TermuxDriverOptions } from './termux-driver.js';

const RECIPIENT = '+381641234567';
// Starts with a dash: as an argument it would read as an option.
const TEXT = '-n 999 Your code is 4711';
/**
 * The command timeout where one stand-in hangs: each stand-in is a Node program, and on a busy 2-core machine
 * one that answers took over half a second to start, so a shorter timeout cut off answers, not only the hang.
 */
const HANG_TIMEOUT_MS = 2_000;

describe(TermuxDriver.name, () => {
  let standIns: TermuxStandIns;
  let stateDir: string;
  let logger: RecordingLogger;
  let sut: TermuxDriver;
  const watches: { stop: AbortController; done: Promise<void> }[] = [];

  beforeEach(async () => {
    standIns = await TermuxStandIns.start();
    stateDir = await mkdtemp(join(tmpdir(), 'termux-driver-'));
  });

  afterEach(async () => {
    for (const watch of watches.splice(0)) {
      watch.stop.abort();
      await watch.done;
    }
    await standIns.close();
    await rm(stateDir, { recursive: true, force: true });
    // Logs name the task, never the text or the whole number.
    expect(logger.lines.join('\n')).not.toMatch(/Your code|641234567|STOP please|Hello again/);
  });

  const journalFile = (): string => join(stateDir, 'termux-journal.json');

  function driver(overrides: Partial<TermuxDriverOptions> = {}): TermuxDriver {
    const recording = recordingLog();
    logger = recording.logger;
    return new TermuxDriver({ commandTimeoutMs: 5_000, confirmWindowMs: 1_000, pollIntervalMs: 50, stateFile: join(stateDir, 'termux-replies.json'), journalFile: journalFile(), log: recording.log, run: createCommandRunner(standIns.env), ...overrides });
  }

  function outgoing(overrides: Partial<OutgoingSms> = {}): OutgoingSms {
    const taskId = overrides.taskId ?? 7;
    return { taskId, messageKey: `smsq-${taskId}-20260504100000`, recipient: RECIPIENT, message: TEXT, gatewayUrl: null, claimDeadline: Date.now() + 60_000, ...overrides };
  }

  /** A worker process that dies once termux-sms-send has run: its send never answers. */
  function dyingAfterSend(): CommandRunner {
    const run = createCommandRunner(standIns.env);
    return async (program, args, request) => {
      const result = await run(program, args, request);
      return program === 'termux-sms-send' ? new Promise(() => undefined) : result;
    };
  }

  function watch(driverUnderTest: TermuxDriver, sink: (replies: ReceivedSms[]) => Promise<void>): void {
    const stop = new AbortController();
    watches.push({ stop, done: driverUnderTest.watchReplies!(sink, stop.signal) });
  }

  describe('send', () => {
    it('hands the text to termux-sms-send on standard input with the SIM slot, and confirms it sent from the SMS list', async () => {
      sut = driver({ simSlot: 1 });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      const [stored] = await standIns.messages();
      expect(outcome).toEqual({ status: 'sent', delivered: false, messageId: String(stored?._id) });
      expect(standIns.calls('termux-sms-send')).toEqual([expect.objectContaining({ argv: ['-n', RECIPIENT, '-s', '1'], stdin: TEXT })]);
      expect(standIns.calls('termux-sms-list').map((call) => call.argv)).toEqual([
        ['-t', 'all', '-l', '50'],
        ['-t', 'all', '-l', '50'],
      ]);
      expect(logger.lines).toContain(`log termux SMS sent task=7 message_id=${stored?._id}`);
    });

    it('sends from the SIM smsq chose for the task, over its own slot: slot 0 for SIM 1', async () => {
      sut = driver({ simSlot: 1 });

      await expect(sut.send(outgoing({ sim: 1 }), new AbortController().signal)).resolves.toMatchObject({ status: 'sent' });

      expect(standIns.calls('termux-sms-send')).toEqual([expect.objectContaining({ argv: ['-n', RECIPIENT, '-s', '0'] })]);
    });

    it('passes no -s without a SIM slot, and the number without the spaces the script would split it on', async () => {
      sut = driver();

      const outcome = await sut.send(outgoing({ recipient: '+381 64 123-4567' }), new AbortController().signal);

      expect(outcome).toMatchObject({ status: 'sent' });
      expect(standIns.calls('termux-sms-send').map((call) => call.argv)).toEqual([['-n', RECIPIENT]]);
    });

    it('answers failed when the SMS list shows the SMS failed', async () => {
      sut = driver();
      await standIns.control({ send: { outcome: 'failed' } });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'failed', error: 'the phone could not send the SMS: the SMS list shows it failed' });
    });

    it('keeps looking past the confirm window while the SMS is still in the outbox', async () => {
      sut = driver({ confirmWindowMs: 100 });
      await standIns.control({ send: { queuedForMs: 600 } });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toMatchObject({ status: 'sent', delivered: false, messageId: expect.any(String) });
      // It looked again until the SMS left the outbox 600 ms after the send, far past the 100 ms window
      // (a stand-in stamps its call a few ms before it reads the store, hence 500). Not a count of looks:
      // each look starts a stand-in program, which a busy machine makes slow.
      const [sent] = standIns.calls('termux-sms-send');
      const lastLook = Math.max(...standIns.calls('termux-sms-list').map((call) => call.at));
      expect(lastLook - sent!.at).toBeGreaterThan(500);
    });

    it('reports an SMS still in the outbox when the claim is about to lapse as sent unconfirmed', async () => {
      sut = driver({ commandTimeoutMs: HANG_TIMEOUT_MS });
      await standIns.control({ send: { queuedForMs: 60_000 } });

      const outcome = await sut.send(outgoing({ claimDeadline: Date.now() + REPORT_MARGIN_MS + HANG_TIMEOUT_MS + 1_000 }), new AbortController().signal);

      expect(outcome).toEqual({ status: 'sent', delivered: false });
      expect(logger.lines).toContain('warn termux SMS still queued on the phone: reported sent unconfirmed task=7');
    });

    it('reports sent unconfirmed, with a log line, when termux-sms-send took the SMS but it never shows in the list', async () => {
      // An unknown SIM slot: the app only logs "Sim slot 3 not found" and the command says nothing.
      sut = driver({ simSlot: 3, confirmWindowMs: 300 });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'sent', delivered: false });
      expect(logger.lines).toContain('warn termux SMS not found in the SMS list: reported sent unconfirmed task=7');
    });

    it('kills a hanging termux-sms-send and what it started, and says the Termux:API app may be missing', async () => {
      sut = driver({ commandTimeoutMs: HANG_TIMEOUT_MS });
      await standIns.control({ send: { outcome: 'hang' } });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'failed', error: 'termux-sms-send did not answer within 2 s: is the Termux:API app installed and allowed to send SMS?' });
      expect(standIns.hungPids()).toHaveLength(2);
      await until(() => standIns.hungPids().every((pid) => !isRunning(pid)));
    });

    it('never runs termux-sms-send twice for one task: a second send confirms from the SMS list', async () => {
      sut = driver();
      const first = await sut.send(outgoing(), new AbortController().signal);

      const second = await sut.send(outgoing({ claimDeadline: Date.now() + 60_000 }), new AbortController().signal);

      expect(second).toEqual(first);
      expect(standIns.calls('termux-sms-send')).toHaveLength(1);
    });

    it('does not send again after a hang, and answers failed when the SMS never showed up', async () => {
      sut = driver({ commandTimeoutMs: HANG_TIMEOUT_MS, confirmWindowMs: 200 });
      await standIns.control({ send: { outcome: 'hang' } });
      await sut.send(outgoing(), new AbortController().signal);
      await standIns.control({});

      const again = await sut.send(outgoing(), new AbortController().signal);

      expect(again).toEqual({ status: 'failed', error: 'an earlier termux-sms-send for this task did not finish and the SMS is not in the SMS list; not sent again, so it is never sent twice' });
      expect(standIns.calls('termux-sms-send')).toHaveLength(1);
    });

    it('answers failed with retry for a missing SEND_SMS permission, as nothing reached Android, and sends on a later claim once granted', async () => {
      sut = driver();
      await standIns.control({ send: { outcome: 'permission-denied' } });

      const refused = await sut.send(outgoing(), new AbortController().signal);
      await standIns.control({});
      const again = await driver().send(outgoing(), new AbortController().signal);

      const error = 'termux-sms-send: Please grant the following permission to use this command: android.permission.SEND_SMS';
      expect(refused).toEqual({ status: 'failed', error, retry: true });
      const [stored] = await standIns.messages();
      expect(again).toEqual({ status: 'sent', delivered: false, messageId: String(stored?._id) });
      expect(standIns.calls('termux-sms-send')).toHaveLength(2);
      expect(await standIns.messages()).toHaveLength(1);
    });

    it('runs no termux-sms-send in a new worker process for a task an earlier one sent: it answers from the SMS list', async () => {
      const first = await driver().send(outgoing(), new AbortController().signal);
      sut = driver();

      const again = await sut.send(outgoing(), new AbortController().signal);

      const [stored] = await standIns.messages();
      expect(first).toEqual({ status: 'sent', delivered: false, messageId: String(stored?._id) });
      expect(again).toEqual(first);
      expect(standIns.calls('termux-sms-send')).toHaveLength(1);
      expect((await stat(journalFile())).mode & 0o777).toBe(0o600);
    });

    it('sends no second SMS after a worker died between termux-sms-send and the report', async () => {
      void driver({ run: dyingAfterSend() }).send(outgoing(), new AbortController().signal);
      await until(async () => (await standIns.messages()).length === 1);
      sut = driver();

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      const [stored] = await standIns.messages();
      expect(outcome).toEqual({ status: 'sent', delivered: false, messageId: String(stored?._id) });
      expect(standIns.calls('termux-sms-send')).toHaveLength(1);
    });

    it('reports sent unconfirmed, without sending, a task whose worker died while termux-sms-send ran and that never shows in the list', async () => {
      await standIns.control({ send: { outcome: 'silent' } });
      void driver({ run: dyingAfterSend() }).send(outgoing(), new AbortController().signal);
      // The stand-in stays silent: resetting it here raced the send still reading it, which then put the SMS in the list.
      await until(() => standIns.calls('termux-sms-send').length === 1);
      sut = driver({ confirmWindowMs: 200 });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'sent', delivered: false });
      expect(standIns.calls('termux-sms-send')).toHaveLength(1);
    });

    it('sends a task whose journal entry is older than 48 hours, and one of the same id from another smsq database', async () => {
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() - JOURNAL_RETENTION_MS - 60_000 });
      try {
        await driver().send(outgoing({ taskId: 7 }), new AbortController().signal);
      } finally {
        vi.useRealTimers();
      }
      await driver().send(outgoing({ taskId: 8 }), new AbortController().signal);
      sut = driver();

      const old = await sut.send(outgoing({ taskId: 7 }), new AbortController().signal);
      const otherDatabase = await sut.send(outgoing({ taskId: 8, messageKey: 'smsq-8-20260601090000' }), new AbortController().signal);

      expect(old).toMatchObject({ status: 'sent', messageId: expect.any(String) });
      expect(otherDatabase).toMatchObject({ status: 'sent', messageId: expect.any(String) });
      expect(standIns.calls('termux-sms-send')).toHaveLength(4);
      expect(new Set((await standIns.messages()).map((message) => message._id)).size).toBe(4);
    });

    it('sends nothing while the send journal is unreadable, as a task sent before a crash could not be told apart', async () => {
      await writeFile(journalFile(), 'not JSON');
      sut = driver();

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'unknown', reason: `the termux send journal is unreadable: ${journalFile()} is not JSON; delete it to start afresh` });
      expect(standIns.calls('termux-sms-send')).toEqual([]);
    });

    it('answers unknown, sending nothing, when the worker stops before termux-sms-send ran; the next claim sends', async () => {
      sut = driver();
      const stopped = new AbortController();
      stopped.abort();

      const outcome = await sut.send(outgoing(), stopped.signal);
      const next = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'unknown', reason: 'the worker stopped before sending' });
      expect(next).toMatchObject({ status: 'sent', messageId: expect.any(String) });
      expect(standIns.calls('termux-sms-send')).toHaveLength(1);
    });

    it('answers unknown, sending nothing, when the claim lapses before termux-sms-send could finish and the report reach smsq', async () => {
      sut = driver({ commandTimeoutMs: 2_000 });

      const outcome = await sut.send(outgoing({ claimDeadline: Date.now() + 2_000 + REPORT_MARGIN_MS - 200 }), new AbortController().signal);
      const next = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'unknown', reason: 'the claim lapses too soon to send' });
      expect(next).toMatchObject({ status: 'sent', messageId: expect.any(String) });
      expect(standIns.calls('termux-sms-send')).toHaveLength(1);
    });

    it('answers from the SMS list when termux-sms-send hung after the app took the SMS', async () => {
      sut = driver({ commandTimeoutMs: HANG_TIMEOUT_MS });
      await standIns.control({ send: { thenHang: true } });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      const [stored] = await standIns.messages();
      expect(outcome).toEqual({ status: 'sent', delivered: false, messageId: String(stored?._id) });
      await until(() => standIns.hungPids().length === 2 && standIns.hungPids().every((pid) => !isRunning(pid)));
    });

    it('answers failed when termux-sms-send hung after the app took the SMS and the list shows it failed', async () => {
      sut = driver({ commandTimeoutMs: HANG_TIMEOUT_MS });
      await standIns.control({ send: { outcome: 'failed', thenHang: true } });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'failed', error: 'the phone could not send the SMS: the SMS list shows it failed' });
    });

    it('answers failed with retry, sending nothing, when Termux:API is too hung to list the SMS before the send', async () => {
      sut = driver({ commandTimeoutMs: 300 });
      await standIns.control({ list: 'hang' });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'failed', error: 'termux-sms-list did not answer within 0.3 s: is the Termux:API app installed and allowed to send SMS?', retry: true });
      expect(standIns.calls('termux-sms-send')).toEqual([]);
      await until(() => standIns.hungPids().every((pid) => !isRunning(pid)));
    });

    it('answers a final failure, never retry, for a recipient termux-sms-send cannot take', async () => {
      sut = driver();

      const outcome = await sut.send(outgoing({ recipient: 'not a number' }), new AbortController().signal);

      expect(outcome).toEqual({ status: 'failed', error: 'the recipient is not a phone number termux-sms-send can take (digits and a leading +)' });
    });

    it('answers failed with the install hint when termux-sms-send is not on PATH', async () => {
      sut = driver({ run: createCommandRunner({ ...process.env, PATH: stateDir }) });

      const outcome = await sut.send(outgoing(), new AbortController().signal);

      expect(outcome).toEqual({ status: 'failed', error: 'termux-sms-send is not on PATH: install the termux-api package: pkg install termux-api', retry: true });
    });
  });

  describe('watchReplies', () => {
    const stateFile = (): string => join(stateDir, 'termux-replies.json');
    const listRuns = (): number => standIns.calls('termux-sms-list').length;

    it('starts after the newest inbox message, then hands over new replies oldest first, once each', async () => {
      await standIns.receive({ from: '+38160111222', body: 'Old history', at: new Date('2026-05-01T08:00:00Z') });
      const replies: ReceivedSms[] = [];
      sut = driver();
      watch(sut, async (batch) => void replies.push(...batch));
      await until(() => existsSync(stateFile()));

      const ids = await standIns.receive(
        { from: RECIPIENT, body: 'STOP please', at: new Date('2026-05-04T10:00:01Z') },
        { from: '+38160111222', body: 'Hello again', at: new Date('2026-05-04T10:00:02Z') },
      );
      await until(() => replies.length === 2);
      const runs = listRuns();
      await until(() => listRuns() >= runs + 3);

      expect(replies).toEqual([
        { from: RECIPIENT, message: 'STOP please', receivedAt: '2026-05-04T10:00:01.000Z', externalId: `termux:${ids[0]}` },
        { from: '+38160111222', message: 'Hello again', receivedAt: '2026-05-04T10:00:02.000Z', externalId: `termux:${ids[1]}` },
      ]);
      expect(JSON.parse(await readFile(stateFile(), 'utf8'))).toEqual({ lastInboxId: ids[1] });
      expect((await stat(stateFile())).mode & 0o777).toBe(0o600);
      expect(standIns.calls('termux-sms-list')[0]?.argv).toEqual(['-t', 'inbox', '-l', '50']);
    });

    it('resumes after a restart from the state file, handing nothing twice', async () => {
      const replies: ReceivedSms[] = [];
      watch(driver(), async (batch) => void replies.push(...batch));
      await until(() => existsSync(stateFile()));
      await standIns.receive({ from: RECIPIENT, body: 'STOP please' });
      await until(() => replies.length === 1);
      const first = watches.pop()!;
      first.stop.abort();
      await first.done;

      await standIns.receive({ from: RECIPIENT, body: 'Hello again' });
      sut = driver();
      watch(sut, async (batch) => void replies.push(...batch));
      await until(() => replies.length === 2);
      const runs = listRuns();
      await until(() => listRuns() >= runs + 3);

      expect(replies.map((reply) => reply.message)).toEqual(['STOP please', 'Hello again']);
    });

    it('keeps the cursor while the sink refuses, and offers the same replies again', async () => {
      const offers: string[][] = [];
      let refusing = true;
      sut = driver();
      watch(sut, async (batch) => {
        offers.push(batch.map((reply) => reply.externalId));
        if (refusing) throw new Error('smsq unreachable');
      });
      await until(() => existsSync(stateFile()));
      const cursor = await readFile(stateFile(), 'utf8');
      const ids = await standIns.receive({ from: RECIPIENT, body: 'STOP please' }, { from: RECIPIENT, body: 'Hello again' });

      await until(() => offers.length >= 2);
      expect(await readFile(stateFile(), 'utf8')).toBe(cursor);
      refusing = false;
      await until(async () => JSON.parse(await readFile(stateFile(), 'utf8')).lastInboxId === ids[1]);
      const offered = offers.length;
      const runs = listRuns();
      await until(() => listRuns() >= runs + 3);

      expect(offers).toHaveLength(offered);
      expect(new Set(offers.map((offer) => offer.join()))).toEqual(new Set([ids.map((id) => `termux:${id}`).join()]));
      expect(logger.lines).toContain('warn termux replies not stored: offered again on the next poll count=2 reason="smsq unreachable"');
    });
  });

  describe('health', () => {
    it('reads the battery level and whether the phone is on power', async () => {
      sut = driver();
      const discharging = await sut.health!(new AbortController().signal);
      await standIns.control({ battery: { present: true, health: 'GOOD', plugged: 'PLUGGED_USB', status: 'CHARGING', percentage: 41, level: 41, scale: 100 } });

      const charging = await sut.health!(new AbortController().signal);

      expect(discharging).toEqual({ batteryPercent: 73, charging: false });
      expect(charging).toEqual({ batteryPercent: 41, charging: true });
    });

    it('answers undefined when termux-battery-status does not answer in time', async () => {
      sut = driver({ commandTimeoutMs: 300 });
      await standIns.control({ battery: 'hang' });

      expect(await sut.health!(new AbortController().signal)).toBeUndefined();
      await until(() => standIns.hungPids().every((pid) => !isRunning(pid)));
    });
  });
});
