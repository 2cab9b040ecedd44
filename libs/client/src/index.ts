import { PassphraseKeyring } from '@smsq/message-crypto';
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './generated/smsq-api.js';

export type { components, operations, paths, webhooks } from './generated/smsq-api.js';
export { isSealedMessage, PassphraseKeyring, SealedMessageError, type SealedMessageProblem } from '@smsq/message-crypto';

type Schemas = components['schemas'];
export type ErrorBody = Schemas['Error'];
export type CreateTaskRequest = Schemas['CreateTaskRequest'];
export type CreatedTask = Schemas['CreatedTask'];
export type CreateTasksResult = Schemas['CreateTasksResult'];
export type RefusedItem = Schemas['RefusedItem'];
export type Task = Schemas['Task'];
export type TaskPage = Schemas['TaskPage'];
export type ClaimedTask = Schemas['ClaimedTask'];
export type TaskStatusRequest = Schemas['TaskStatusRequest'];
export type TaskStatusResult = Schemas['TaskStatusResult'];
export type ClaimedTasks = Schemas['ClaimedTasks'];
export type TaskStatusReport = Schemas['TaskStatusReport'];
export type TaskStatusesRequest = Schemas['TaskStatusesRequest'];
export type TaskStatusesResult = Schemas['TaskStatusesResult'];
export type ReportedItem = Schemas['ReportedItem'];
export type RefusedReport = Schemas['RefusedReport'];
export type InboundMessage = Schemas['InboundMessage'];
export type PhoneHealthRequest = Schemas['PhoneHealthRequest'];
export type RegisteredPhone = Schemas['RegisteredPhone'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointCreated = Schemas['WebhookEndpointCreated'];
export type TaskEvent = Schemas['TaskEvent'];
export type ReplyEvent = Schemas['ReplyEvent'];
export type Phone = Schemas['Phone'];
export type PhoneList = Schemas['PhoneList'];
export type PhoneLimitsRequest = Schemas['PhoneLimitsRequest'];
export type PhoneEvent = Schemas['PhoneEvent'];
export type SendingRules = Schemas['SendingRules'];
export type SendingRulesRequest = Schemas['SendingRulesRequest'];
export type SendWindow = Schemas['SendWindow'];
export type RoutingMode = SendingRules['routing_mode'];
export type TaskPriority = NonNullable<CreateTaskRequest['priority']>;

export type SmsqClient = Client<paths>;

export interface SmsqClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where smsq answers, without `/smsapi`: `https://sms.example.com`. */
  baseUrl: string;
  /** A client's API key, for queuing and following tasks and managing webhooks. */
  apiKey?: string;
  /** A phone's or worker's token, for claiming and reporting tasks. */
  workerToken?: string;
}

/**
 * A typed client of smsq's public API. Every call answers `{ data, error, response }`: `data` is
 * the success body, `error` the contract's `{error, detail}`, typed by path, method and status.
 *
 *     const smsq = createSmsqClient({ baseUrl: 'https://sms.example.com', apiKey });
 *     const { data, error } = await smsq.POST('/smsapi/create-task', { body: { recipient: '+381641234567', message: 'Hi' } });
 */
export function createSmsqClient(options: SmsqClientOptions): SmsqClient {
  const { apiKey, workerToken, baseUrl, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: {
      accept: 'application/json',
      ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }),
      ...(workerToken === undefined ? {} : { 'x-worker-token': workerToken }),
      ...(headers as Record<string, string> | undefined),
    },
  });
}

/** The keyring of the passphrase last given as text, so a run of calls derives its key once; pass a PassphraseKeyring to hold several. */
let lastKeyring: { passphrase: string; keyring: PassphraseKeyring } | undefined;

function keyringOf(passphrase: string | PassphraseKeyring): PassphraseKeyring {
  if (passphrase instanceof PassphraseKeyring) return passphrase;
  if (lastKeyring?.passphrase !== passphrase) lastKeyring = { passphrase, keyring: new PassphraseKeyring(passphrase) };
  return lastKeyring.keyring;
}

/**
 * Seals a message end to end (docs/guide/encryption.md), for create-task with `encrypted: true`: only a
 * worker holding the same passphrase can read it. The first call derives the key (a moment, on
 * purpose); later ones take well under a millisecond.
 *
 *     await smsq.POST('/smsapi/create-task', { body: { recipient, message: await encrypt(passphrase, 'Your code is 1234'), encrypted: true } });
 */
export function encrypt(passphrase: string | PassphraseKeyring, text: string): Promise<string> {
  return keyringOf(passphrase).seal(text);
}

/** The text of a sealed message (a task's `message` when `encrypted`, a reply's); throws SealedMessageError when it cannot be opened. */
export function decrypt(passphrase: string | PassphraseKeyring, sealed: string): Promise<string> {
  return keyringOf(passphrase).open(sealed);
}
