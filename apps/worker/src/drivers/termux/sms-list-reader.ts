import type { CommandRunner } from './command-runner.js';
import { listedSms, readJsonAnswer, type ListedSms } from './termux-answers.js';

export const OLD_APP = 'termux-sms-list prints no _id: update the Termux:API app';

export type SmsListAnswer = { ok: true; messages: ListedSms[] } | { ok: false; problem: string; timedOut: boolean };

/** `termux-sms-list -t all|inbox|sent|draft|outbox`: the message types every version of the script accepts. */
export type SmsListType = 'all' | 'inbox' | 'sent' | 'draft' | 'outbox';

/** Reads one page of `termux-sms-list`: the newest `limit` messages after skipping `offset`, printed oldest first. */
export async function readSmsList(run: CommandRunner, page: { type: SmsListType; limit: number; offset?: number }, timeoutMs: number, signal?: AbortSignal): Promise<SmsListAnswer> {
  const args = ['-t', page.type, '-l', String(page.limit), ...(page.offset ? ['-o', String(page.offset)] : [])];
  const answer = readJsonAnswer('termux-sms-list', await run('termux-sms-list', args, { timeoutMs, signal }), timeoutMs);
  if (!answer.ok) return answer;
  const messages = listedSms(answer.json);
  if (messages === undefined) return { ok: false, problem: 'termux-sms-list printed JSON that is not a list of messages', timedOut: false };
  // Termux:API before SmsInboxAPI printed `_id` gives nothing to follow messages by.
  if (messages.length === 0 && Array.isArray(answer.json) && answer.json.length > 0) return { ok: false, problem: OLD_APP, timedOut: false };
  return { ok: true, messages };
}
