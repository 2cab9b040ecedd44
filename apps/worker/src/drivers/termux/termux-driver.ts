import { dirname, join } from 'node:path';
import { sleep } from '../../delivery/backoff.js';
import { parseBody, reasonOf } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { OutgoingSms, PhoneDriver, PhoneHealth, ReplySink, SendOutcome } from '../phone-driver.js';
import { createCommandRunner, type CommandRunner } from './command-runner.js';
import { InboxWatch } from './inbox-watch.js';
import { SendJournal, type SendEntry } from './send-journal.js';
import { readSmsList } from './sms-list-reader.js';
import { describeFailure, errorOf, parseReceived, readJsonAnswer, sameNumber, type ListedSms } from './termux-answers.js';

export interface TermuxDriverOptions {
  /** SIM slot for `termux-sms-send -s` (0 is the first); the phone's default SIM when absent. */
  simSlot?: number;
  /** Longest wait for one Termux:API program: without the Termux:API app they never answer. */
  commandTimeoutMs: number;
  /** How long after a send the SMS list is searched for the message before it counts as sent unconfirmed. */
  confirmWindowMs: number;
  /** Pause between two looks at the SMS list, for replies and for a send's confirmation. */
  pollIntervalMs: number;
  /** The reply cursor's JSON file. */
  stateFile: string;
  /** The send journal's JSON file (send-journal.ts); `termux-journal.json` beside `stateFile` when absent. */
  journalFile?: string;
  log: WorkerLog;
  run?: CommandRunner;
}

export const TERMUX_DEFAULTS = { commandTimeoutMs: 20_000, confirmWindowMs: 30_000, pollIntervalMs: 5_000 } as const;

/** Kept free before a claim lapses, for the report to reach smsq. */
export const REPORT_MARGIN_MS = 3_000;

/** Newest messages of all types searched for a sent SMS. */
const SENT_SEARCH = 50;
const SEND_QUESTION = 'is the Termux:API app installed and allowed to send SMS?';
const STOPPED: SendOutcome = { status: 'unknown', reason: 'the worker stopped before sending' };
const TOO_LATE: SendOutcome = { status: 'unknown', reason: 'the claim lapses too soon to send' };
const SENT_UNCONFIRMED: SendOutcome = { status: 'sent', delivered: false };

/**
 * A worker running on the phone itself, under Termux's Node.js, sending through the Termux:API
 * programs (termux/termux-api-package): `termux-sms-send` hands the text to Android and says
 * nothing more, so the SMS list (`termux-sms-list`) tells whether it went out.
 *
 * Never twice, even across a crash: each task is written to the send journal (a file) before
 * `termux-sms-send` runs, and a task found there is only looked for in the SMS list, never sent
 * again, by this process or the next one, for 48 hours; unless the journal says nothing reached
 * Android (the command never ran, or the app refused it), which is also the one failure reported
 * with `retry`, besides a Termux:API too hung to list the SMS before the send.
 *
 * No refusal for volume is ever reported: termux-sms-send (SmsSendAPI) hands the text to
 * `sendMultipartTextMessage` without a sent intent, so Android's `RESULT_ERROR_LIMIT_EXCEEDED` never
 * reaches Termux:API, and the SMS list shows such an SMS only as `failed`, for whatever cause.
 */
export class TermuxDriver implements PhoneDriver {
  readonly name = 'termux';
  private readonly run: CommandRunner;
  private readonly journal: SendJournal;
  private readonly inbox: InboxWatch;

  constructor(private readonly options: TermuxDriverOptions) {
    const { simSlot, commandTimeoutMs, confirmWindowMs, pollIntervalMs } = options;
    if (simSlot !== undefined && !(Number.isInteger(simSlot) && simSlot >= 0)) throw new RangeError(`simSlot must be a whole number from 0, not ${simSlot}`);
    if (!(commandTimeoutMs > 0) || !(pollIntervalMs > 0) || !(confirmWindowMs >= 0)) throw new RangeError('commandTimeoutMs and pollIntervalMs must be above 0, confirmWindowMs at least 0');
    this.run = options.run ?? createCommandRunner();
    this.journal = new SendJournal(options.journalFile ?? join(dirname(options.stateFile), 'termux-journal.json'));
    this.inbox = new InboxWatch({ ...options, run: this.run });
  }

  async send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    let entry: SendEntry | undefined;
    try {
      entry = this.journal.find(sms);
    } catch (error) {
      // Without the journal a task sent before a crash cannot be told apart: smsq hands it to the next claim.
      const reason = reasonOf(error);
      this.options.log.error('termux send journal unreadable: not sending', { task: sms.taskId, reason });
      return { status: 'unknown', reason: `the termux send journal is unreadable: ${reason}` };
    }
    try {
      // A refusal or a command that never ran left nothing with Android: a later claim (a retry) may send afresh.
      if (entry === undefined || entry.command === 'not-started' || entry.command === 'refused') return await this.sendOnce(sms, signal);
      this.options.log.warn('termux task seen before: confirming from the SMS list, not sending again', { task: sms.taskId, command: entry.command });
      return entry.outcome ?? (await this.confirm(sms, entry, signal, this.options.confirmWindowMs)) ?? this.neverSeen(sms, entry);
    } catch (error) {
      const reason = reasonOf(error);
      this.options.log.error('termux send crashed', { task: sms.taskId, reason });
      const command = this.journal.find(sms)?.command;
      return command === 'running' || command === 'accepted' ? SENT_UNCONFIRMED : { status: 'failed', error: `the termux driver failed: ${reason}` };
    }
  }

  watchReplies(sink: ReplySink, signal: AbortSignal): Promise<void> {
    return this.inbox.run(sink, signal);
  }

  async health(signal: AbortSignal): Promise<PhoneHealth | undefined> {
    const { commandTimeoutMs } = this.options;
    const answer = readJsonAnswer('termux-battery-status', await this.run('termux-battery-status', [], { timeoutMs: commandTimeoutMs, signal }), commandTimeoutMs);
    return answer.ok ? batteryHealth(answer.json) : undefined;
  }

  private async sendOnce(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    const { log, commandTimeoutMs, confirmWindowMs } = this.options;
    // Termux:API counts SIM slots from 0, smsq from 1.
    const simSlot = sms.sim === undefined ? this.options.simSlot : sms.sim - 1;
    const recipient = dialable(sms.recipient);
    if (recipient === undefined) return { status: 'failed', error: 'the recipient is not a phone number termux-sms-send can take (digits and a leading +)' };
    if (sms.message.trim() === '') return { status: 'failed', error: 'the message is empty once trimmed, as Termux:API trims what it sends' };
    if (signal.aborted) return STOPPED;
    if (this.tooLateToSend(sms)) return TOO_LATE;

    const startedAt = Date.now();
    const baseline = await readSmsList(this.run, { type: 'all', limit: SENT_SEARCH }, commandTimeoutMs, signal);
    // termux-sms-list hanging means termux-sms-send would hang too; nothing was sent, so smsq may try again, on another phone.
    if (!baseline.ok && baseline.timedOut) return { status: 'failed', error: describeFailure('termux-sms-list', { kind: 'timed-out', stdout: '', stderr: '' }, commandTimeoutMs, SEND_QUESTION), retry: true };
    if (signal.aborted) return STOPPED;
    // The command is not killed part way, so it must be able to run its whole timeout before the report is due.
    if (this.tooLateToSend(sms)) return TOO_LATE;
    if (!baseline.ok) log.warn('termux SMS list unreadable: the sent SMS is looked for by time', { task: sms.taskId, problem: baseline.problem });
    const entry: SendEntry = { taskId: sms.taskId, messageKey: sms.messageKey, baselineId: baseline.ok ? Math.max(0, ...baseline.messages.map((message) => message.id)) : null, startedAt, command: 'running' };
    try {
      this.journal.save(entry);
    } catch (error) {
      const reason = reasonOf(error);
      log.error('termux send journal not written: not sending', { task: sms.taskId, reason });
      return { status: 'unknown', reason: `the termux send journal could not be written: ${reason}` };
    }

    const args = ['-n', recipient, ...(simSlot === undefined ? [] : ['-s', String(simSlot)])];
    // The text goes on standard input: as an argument it could read as an option, and every process can see argv.
    // No abort signal: killing it half way could leave an SMS sent without anyone knowing.
    const result = await this.run('termux-sms-send', args, { input: sms.message, timeoutMs: commandTimeoutMs });
    const refusal = result.kind === 'exited' && result.code === 0 ? errorOf(parseBody(result.stdout)) : undefined;
    if (result.kind === 'not-started' || refusal !== undefined) {
      // Nothing reached Android (not installed, or the app refused before sending).
      const error = refusal !== undefined ? `termux-sms-send: ${refusal}` : describeFailure('termux-sms-send', result, commandTimeoutMs);
      this.record(entry, { command: refusal !== undefined ? 'refused' : 'not-started', error });
      return { status: 'failed', error, retry: true };
    }
    if (result.kind === 'timed-out' && baseline.ok) {
      // termux-sms-list just answered, so the app is there and the broadcast may have reached it: the list tells.
      this.record(entry, { command: 'timed-out' });
      log.warn('termux-sms-send did not answer: looking for the SMS in the list', { task: sms.taskId });
      const found = await this.confirm(sms, entry, signal, Math.min(confirmWindowMs, commandTimeoutMs));
      return found ?? { status: 'failed', error: describeFailure('termux-sms-send', result, commandTimeoutMs, SEND_QUESTION) };
    }
    if (result.kind !== 'exited' || result.code !== 0) {
      const error = describeFailure('termux-sms-send', result, commandTimeoutMs, SEND_QUESTION);
      this.record(entry, { command: result.kind === 'timed-out' ? 'timed-out' : 'failed' });
      log.warn('termux-sms-send failed', { task: sms.taskId, problem: error });
      return { status: 'failed', error };
    }
    this.record(entry, { command: 'accepted' });
    log.info('termux-sms-send took the SMS', { task: sms.taskId, sim_slot: simSlot });
    return (await this.confirm(sms, entry, signal, confirmWindowMs)) ?? this.neverSeen(sms, entry);
  }

  /** Whether the claim lapses before termux-sms-send could run its whole timeout and the report still reach smsq. */
  private tooLateToSend(sms: OutgoingSms): boolean {
    return sms.claimDeadline - Date.now() < this.options.commandTimeoutMs + REPORT_MARGIN_MS;
  }

  /**
   * Looks for the SMS in the list until it is sent or failed, `windowMs` ends with no trace of it, or the claim is about to lapse.
   * Undefined when it was never seen.
   */
  private async confirm(sms: OutgoingSms, entry: SendEntry, signal: AbortSignal, windowMs: number): Promise<SendOutcome | undefined> {
    const { log, commandTimeoutMs, pollIntervalMs } = this.options;
    const finishBy = sms.claimDeadline - REPORT_MARGIN_MS;
    const lookUntil = Math.min(Date.now() + windowMs, finishBy);
    let queued = false;
    let problem: string | undefined;
    for (;;) {
      const listing = await readSmsList(this.run, { type: 'all', limit: SENT_SEARCH }, Math.max(1, Math.min(commandTimeoutMs, finishBy - Date.now())), signal);
      problem = listing.ok ? undefined : listing.problem;
      const found = listing.ok ? this.findSent(sms, entry, listing.messages) : undefined;
      if (found?.type === 'sent' || found?.type === 'failed') return this.settle(sms, entry, found);
      queued ||= found !== undefined;
      const until = queued ? finishBy : lookUntil;
      if (signal.aborted || Date.now() >= until) break;
      await sleep(Math.min(pollIntervalMs, until - Date.now()), signal);
    }
    if (queued) {
      // Android still holds it and will send it: failing it would refund an SMS about to go out.
      log.warn('termux SMS still queued on the phone: reported sent unconfirmed', { task: sms.taskId });
      return SENT_UNCONFIRMED;
    }
    if (problem !== undefined) log.warn('termux SMS list unreadable while confirming', { task: sms.taskId, problem });
    return undefined;
  }

  /** The answer for an SMS never seen in the list, by what its termux-sms-send did. */
  private neverSeen(sms: OutgoingSms, entry: SendEntry): SendOutcome {
    switch (entry.command) {
      case 'running':
      case 'accepted':
        // The command took it (or a crash hid whether it did) and Android gives no failure signal, so failed would refund an SMS that may have gone out.
        this.options.log.warn('termux SMS not found in the SMS list: reported sent unconfirmed', { task: sms.taskId });
        return SENT_UNCONFIRMED;
      case 'not-started':
      case 'refused':
        return { status: 'failed', error: entry.error ?? 'termux-sms-send did not take the SMS', retry: true };
      case 'timed-out':
      case 'failed':
        return { status: 'failed', error: 'an earlier termux-sms-send for this task did not finish and the SMS is not in the SMS list; not sent again, so it is never sent twice' };
    }
  }

  private settle(sms: OutgoingSms, entry: SendEntry, found: ListedSms): SendOutcome {
    const outcome: SendOutcome = found.type === 'sent' ? { status: 'sent', delivered: false, messageId: String(found.id) } : { status: 'failed', error: 'the phone could not send the SMS: the SMS list shows it failed' };
    this.record(entry, { claimedId: found.id, outcome });
    this.options.log.info(found.type === 'sent' ? 'termux SMS sent' : 'termux SMS failed on the phone', { task: sms.taskId, message_id: found.id });
    return outcome;
  }

  /** The oldest message no other task took, outgoing to the same number with the same text, that appeared since the send began. */
  private findSent(sms: OutgoingSms, entry: SendEntry, messages: ListedSms[]): ListedSms | undefined {
    // Termux:API trims the text it sends.
    const body = sms.message.trim();
    const notBefore = Math.floor(entry.startedAt / 1000) * 1000 - 1000;
    const taken = this.journal.claimedIds(entry);
    return messages
      .filter((message) => message.type !== 'inbox' && message.type !== 'draft' && !taken.has(message.id))
      .filter((message) => message.body === body && sameNumber(message.address, sms.recipient))
      .filter((message) => (entry.baselineId !== null ? message.id > entry.baselineId : (parseReceived(message.received)?.getTime() ?? 0) >= notBefore))
      .sort((a, b) => a.id - b.id)[0];
  }

  /** Updates the entry, in memory at once and in the file when it can be written. */
  private record(entry: SendEntry, change: Partial<SendEntry>): void {
    Object.assign(entry, change);
    try {
      this.journal.save(entry);
    } catch (error) {
      // The entry on disk still says `running`: after a crash the task is confirmed from the list, never sent again.
      this.options.log.error('termux send journal not updated', { task: entry.taskId, reason: reasonOf(error) });
    }
  }
}

/** The number as termux-sms-send's unquoted shell expansion takes it: digits and a leading +, nothing to split or glob. */
function dialable(recipient: string): string | undefined {
  const compact = recipient.replace(/[\s().-]/g, '');
  return /^\+?\d{3,20}$/.test(compact) ? compact : undefined;
}

/** `termux-battery-status`: `percentage` (or `level`/`scale`); charging means on external power (`plugged`), else as `status` says. */
function batteryHealth(json: unknown): PhoneHealth | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { percentage, level, scale, plugged, status } = json as Record<string, unknown>;
  const batteryPercent = typeof percentage === 'number' ? percentage : typeof level === 'number' && typeof scale === 'number' && scale > 0 ? Math.round((level / scale) * 100) : undefined;
  const charging = plugged === 'UNPLUGGED' ? false : /^PLUGGED_(AC|USB|WIRELESS|DOCK)$/.test(String(plugged)) ? true : status === 'CHARGING' || status === 'FULL' ? true : status === 'DISCHARGING' ? false : undefined;
  if (batteryPercent === undefined && charging === undefined) return undefined;
  return { ...(batteryPercent === undefined ? {} : { batteryPercent }), ...(charging === undefined ? {} : { charging }) };
}
