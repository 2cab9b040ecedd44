import { sleep } from '../../delivery/backoff.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { OutgoingSms, PhoneDriver, PhoneHealth, ReplySink, SendOutcome } from '../phone-driver.js';
import { createCommandRunner, type CommandRunner } from './command-runner.js';
import { InboxWatch } from './inbox-watch.js';
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
  log: WorkerLog;
  run?: CommandRunner;
}

export const TERMUX_DEFAULTS = { commandTimeoutMs: 20_000, confirmWindowMs: 30_000, pollIntervalMs: 5_000 } as const;

/** Kept free before a claim lapses, for the report to reach smsq. */
export const REPORT_MARGIN_MS = 3_000;

/** Newest messages of all types searched for a sent SMS. */
const SENT_SEARCH = 50;
/** Task ids remembered against a second send; the oldest are forgotten first. */
const REMEMBERED_TASKS = 10_000;
const SEND_QUESTION = 'is the Termux:API app installed and allowed to send SMS?';
const STOPPED: SendOutcome = { status: 'failed', error: 'the worker stopped before the SMS reached the phone' };

interface SendAttempt {
  /** termux-sms-send exited 0 without an error, so Android has the text; false while it runs, or after it hung or failed. */
  accepted: boolean;
  /** Highest `_id` listed just before the send; undefined when the list could not be read (the time is compared instead). */
  baselineId: number | undefined;
  startedAt: number;
  /** The list's final word (sent or failed) once seen. */
  outcome?: SendOutcome;
  claimedId?: number;
}

/**
 * A worker running on the phone itself, under Termux's Node.js, sending through the Termux:API
 * programs (termux/termux-api-package): `termux-sms-send` hands the text to Android and says
 * nothing more, so the SMS list (`termux-sms-list`) tells whether it went out.
 */
export class TermuxDriver implements PhoneDriver {
  readonly name = 'termux';
  private readonly run: CommandRunner;
  private readonly attempts = new Map<number, SendAttempt>();
  private readonly claimedIds = new Set<number>();
  private readonly inbox: InboxWatch;

  constructor(private readonly options: TermuxDriverOptions) {
    const { simSlot, commandTimeoutMs, confirmWindowMs, pollIntervalMs } = options;
    if (simSlot !== undefined && !(Number.isInteger(simSlot) && simSlot >= 0)) throw new RangeError(`simSlot must be a whole number from 0, not ${simSlot}`);
    if (!(commandTimeoutMs > 0) || !(pollIntervalMs > 0) || !(confirmWindowMs >= 0)) throw new RangeError('commandTimeoutMs and pollIntervalMs must be above 0, confirmWindowMs at least 0');
    this.run = options.run ?? createCommandRunner();
    this.inbox = new InboxWatch({ ...options, run: this.run });
  }

  async send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    try {
      const earlier = this.attempts.get(sms.taskId);
      if (earlier === undefined) return await this.sendOnce(sms, signal);
      this.options.log.warn('termux task seen before: confirming from the SMS list, not sending again', { task: sms.taskId });
      return earlier.outcome ?? (await this.confirm(sms, earlier, signal));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.options.log.error('termux send crashed', { task: sms.taskId, reason });
      return this.attempts.get(sms.taskId)?.accepted ? { status: 'sent', delivered: false } : { status: 'failed', error: `the termux driver failed: ${reason}` };
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
    const { log, simSlot, commandTimeoutMs } = this.options;
    const recipient = dialable(sms.recipient);
    if (recipient === undefined) return { status: 'failed', error: 'the recipient is not a phone number termux-sms-send can take (digits and a leading +)' };
    if (sms.message.trim() === '') return { status: 'failed', error: 'the message is empty once trimmed, as Termux:API trims what it sends' };
    if (signal.aborted) return STOPPED;

    const startedAt = Date.now();
    const baseline = await readSmsList(this.run, { type: 'all', limit: SENT_SEARCH }, commandTimeoutMs, signal);
    // termux-sms-list hanging means termux-sms-send would hang too; nothing was sent, so smsq may try again.
    if (!baseline.ok && baseline.timedOut) return { status: 'failed', error: describeFailure('termux-sms-list', { kind: 'timed-out', stdout: '', stderr: '' }, commandTimeoutMs, SEND_QUESTION) };
    if (signal.aborted) return STOPPED;
    if (!baseline.ok) log.warn('termux SMS list unreadable: the sent SMS is looked for by time', { task: sms.taskId, problem: baseline.problem });
    const attempt: SendAttempt = { accepted: false, baselineId: baseline.ok ? Math.max(0, ...baseline.messages.map((message) => message.id)) : undefined, startedAt };
    this.remember(sms.taskId, attempt);

    const args = ['-n', recipient, ...(simSlot === undefined ? [] : ['-s', String(simSlot)])];
    // The text goes on standard input: as an argument it could read as an option, and every process can see argv.
    // No abort signal: killing it half way could leave an SMS sent without anyone knowing.
    const result = await this.run('termux-sms-send', args, { input: sms.message, timeoutMs: commandTimeoutMs });
    const refusal = result.kind === 'exited' && result.code === 0 ? errorOf(parseJson(result.stdout)) : undefined;
    if (result.kind === 'not-started' || refusal !== undefined) {
      // Nothing reached Android (not installed, or the app refused before sending): a later try may send.
      this.forget(sms.taskId);
      return { status: 'failed', error: refusal !== undefined ? `termux-sms-send: ${refusal}` : describeFailure('termux-sms-send', result, commandTimeoutMs) };
    }
    if (result.kind !== 'exited' || result.code !== 0) {
      const error = describeFailure('termux-sms-send', result, commandTimeoutMs, SEND_QUESTION);
      log.warn('termux-sms-send failed', { task: sms.taskId, problem: error });
      return { status: 'failed', error };
    }
    attempt.accepted = true;
    log.info('termux-sms-send took the SMS', { task: sms.taskId, sim_slot: simSlot });
    return this.confirm(sms, attempt, signal);
  }

  /** Looks for the SMS in the list until it is sent or failed, the confirm window ends with no trace of it, or the claim is about to lapse. */
  private async confirm(sms: OutgoingSms, attempt: SendAttempt, signal: AbortSignal): Promise<SendOutcome> {
    const { log, commandTimeoutMs, confirmWindowMs, pollIntervalMs } = this.options;
    const finishBy = sms.claimDeadline - REPORT_MARGIN_MS;
    const lookUntil = Math.min(Date.now() + confirmWindowMs, finishBy);
    let queued = false;
    let problem: string | undefined;
    for (;;) {
      const listing = await readSmsList(this.run, { type: 'all', limit: SENT_SEARCH }, Math.max(1, Math.min(commandTimeoutMs, finishBy - Date.now())), signal);
      problem = listing.ok ? undefined : listing.problem;
      const found = listing.ok ? this.findSent(sms, attempt, listing.messages) : undefined;
      if (found?.type === 'sent' || found?.type === 'failed') return this.settle(sms, attempt, found);
      queued ||= found !== undefined;
      const until = queued ? finishBy : lookUntil;
      if (signal.aborted || Date.now() >= until) break;
      await sleep(Math.min(pollIntervalMs, until - Date.now()), signal);
    }
    if (queued) {
      // Android still holds it and will send it: failing it would refund an SMS about to go out.
      log.warn('termux SMS still queued on the phone: reported sent unconfirmed', { task: sms.taskId });
      return { status: 'sent', delivered: false };
    }
    if (attempt.accepted) {
      // Never found: the command took it and Android gives no failure signal, so failed would refund an SMS that may have gone out.
      log.warn('termux SMS not found in the SMS list: reported sent unconfirmed', { task: sms.taskId, problem });
      return { status: 'sent', delivered: false };
    }
    return { status: 'failed', error: 'an earlier termux-sms-send for this task did not finish and the SMS is not in the SMS list; not sent again, so it is never sent twice' };
  }

  private settle(sms: OutgoingSms, attempt: SendAttempt, found: ListedSms): SendOutcome {
    attempt.claimedId = found.id;
    this.claimedIds.add(found.id);
    attempt.outcome = found.type === 'sent' ? { status: 'sent', delivered: false, messageId: String(found.id) } : { status: 'failed', error: 'the phone could not send the SMS: the SMS list shows it failed' };
    this.options.log.info(found.type === 'sent' ? 'termux SMS sent' : 'termux SMS failed on the phone', { task: sms.taskId, message_id: found.id });
    return attempt.outcome;
  }

  /** The oldest unclaimed outgoing message to the same number with the same text that appeared since the send began. */
  private findSent(sms: OutgoingSms, attempt: SendAttempt, messages: ListedSms[]): ListedSms | undefined {
    // Termux:API trims the text it sends.
    const body = sms.message.trim();
    const notBefore = Math.floor(attempt.startedAt / 1000) * 1000 - 1000;
    return messages
      .filter((message) => message.type !== 'inbox' && message.type !== 'draft' && !this.claimedIds.has(message.id))
      .filter((message) => message.body === body && sameNumber(message.address, sms.recipient))
      .filter((message) => (attempt.baselineId !== undefined ? message.id > attempt.baselineId : (parseReceived(message.received)?.getTime() ?? 0) >= notBefore))
      .sort((a, b) => a.id - b.id)[0];
  }

  private remember(taskId: number, attempt: SendAttempt): void {
    this.attempts.set(taskId, attempt);
    if (this.attempts.size <= REMEMBERED_TASKS) return;
    const [oldest] = this.attempts.keys();
    if (oldest !== undefined) this.forget(oldest);
  }

  private forget(taskId: number): void {
    const claimedId = this.attempts.get(taskId)?.claimedId;
    if (claimedId !== undefined) this.claimedIds.delete(claimedId);
    this.attempts.delete(taskId);
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
