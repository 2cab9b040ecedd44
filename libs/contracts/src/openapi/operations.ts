import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { TASK_STATUSES } from '../dispatch/task-view.js';
import { OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS } from '../dispatch/keywords.js';
import { MAX_WEBHOOK_ENDPOINTS } from '../dispatch/webhooks.js';
import { MAX_SMPP_CREDENTIALS } from '../gateway/smpp-credentials.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH, MAX_CLAIM_BATCH, MAX_REPORT_BATCH, MAX_WAIT_S, TASK_PAGE_DEFAULT_LIMIT, TASK_PAGE_MAX_LIMIT } from '../gateway/public-limits.js';
import { ref, type JsonSchema } from './schemas.js';

/** A public route as the gateway's router spells it: `GET /smsapi/tasks/:id`. */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /smsapi/${string}`;

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
}

const CLIENT: Array<Record<string, string[]>> = [{ ApiKey: [] }, { ApiKeyQuery: [] }];
const WORKER: Array<Record<string, string[]>> = [{ WorkerToken: [] }];

const json = (schema: JsonSchema, example?: unknown): JsonSchema => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
const body = (schema: JsonSchema): JsonSchema => ({ required: true, content: json(schema) });
const success = (description: string, schema: JsonSchema, example?: unknown): JsonSchema => ({ description, content: json(schema, example) });

/** The error answers an operation documents, each with the codes it can carry. */
function errors(...codes: ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const answers: Record<string, JsonSchema> = {};
  for (const [status, listed] of byStatus) {
    answers[String(status)] = {
      description: listed.map((code) => `\`${code}\``).join(', '),
      ...(status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
      content: json(ref('Error'), { error: listed[0], detail: 'what was wrong' }),
    };
  }
  return answers;
}

/** Any answer not listed: `invalid_json`, `payload_too_large`, `internal_error`, `unavailable`, … always the error shape. */
const ANY_ERROR = { default: { description: 'Any other error, in the same shape (for example 413 `payload_too_large`, 500 `internal_error`, 503 `unavailable`).', content: json(ref('Error')) } };

const CLIENT_ERRORS: ErrorCode[] = ['unauthorized', 'rate_limited'];
const TASK_ID = { name: 'id', in: 'path', required: true, description: 'The task.', schema: { type: 'integer', minimum: 1 } };
const PHONE_ID = { name: 'id', in: 'path', required: true, description: 'The phone.', schema: { type: 'integer', minimum: 1 } };
const SMPP_CREDENTIAL_ID = { name: 'id', in: 'path', required: true, description: 'The SMPP credential.', schema: { type: 'integer', minimum: 1 } };
const SMPP_CREDENTIAL_EXAMPLE = { id: 4, system_id: 'c7k3m9xq', source_addresses: ['ACME'], created_at: '2026-05-01T07:00:00.000Z', last_bound_at: '2026-05-01T07:31:00.000Z', revoked_at: null };
const TEMPLATE_ID = { name: 'id', in: 'path', required: true, description: 'The template.', schema: { type: 'integer', minimum: 1 } };
const OPT_OUT_NUMBER = { name: 'number', in: 'path', required: true, description: 'The number, read as create-task reads a recipient (URL-encode the `+` as `%2B`).', schema: { type: 'string' } };
const ENDPOINT_ID = { name: 'id', in: 'path', required: true, description: 'The webhook endpoint.', schema: { type: 'integer', minimum: 1 } };
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'A repeat with the same key and the same body within 24 hours replays the first answer and charges nothing; the same key with another body is 409 `conflict`. Scoped to your client.',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
};
const PHONE_EXAMPLE = {
  id: 3, name: 'Office phone', number: '+381641234567', kind: 'own', state: 'online', active: true, last_contact_at: '2026-05-01T07:30:10.000Z', last_seen_at: '2026-05-01T07:30:10.000Z',
  daily_limit: null, per_minute: null, monthly_recipients: null, jitter: null, sims: 1, sent_today: 12, parts_today: 14, recipients_this_month: 40, paused_until: null, pause_reason: null,
  waiting_tasks: 0, health: { battery_percent: 80, charging: true, connection: 'wifi', reported_at: '2026-05-01T07:29:00.000Z' },
};
const SENDING_RULES_EXAMPLE = {
  routing_mode: 'sticky', sticky_days: 30, send_windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' }, { days: ['sat'], from: '10:00', to: '14:00' }],
  time_zone: 'Europe/Belgrade', window_open: false, window_opens_at: '2026-05-01T06:00:00.000Z',
};
const TASK_EXAMPLE = {
  id: 42, status: 'sent', phone_id: 1, first_phone_id: 1, client_id: 7, scheduled_at: '2026-05-01 09:30:00', recipient: '+381641234567', message: 'Your code is 1234',
  attempts: 1, sent_at: '2026-05-01T07:30:04.000Z', delivered_at: null, failed_at: null, error: null, expires_at: null, segments: 1, encrypted: false, priority: 'high', rerouted_because: null,
};

/** Every route of the public API, keyed as the gateway registers it; the gateway refuses to start when the two differ. */
export const OPERATIONS: Record<RouteKey, Operation> = {
  'POST /smsapi/create-task': {
    operationId: 'createTask',
    summary: 'Queue one SMS',
    description:
      'Checks, in this order: the API key (401), the body (400), your opt-out list (409 `recipient_opted_out`: the recipient replied STOP or you put it there), a phone or gateway to send through (400 `no_active_phone` in Profile A, 503 `no_active_gateway` in Profile B), credits (402), then queues the task and debits one credit. The phone is chosen by your routing mode (`/smsapi/sending-rules`); a task due outside your send windows waits for them, charged now, unless it has `priority: "high"`.',
    tags: ['Tasks'],
    security: CLIENT,
    parameters: [IDEMPOTENCY_KEY],
    requestBody: body(ref('CreateTaskRequest')),
    responses: {
      '201': success('Queued and charged.', ref('CreatedTask'), { ok: true, id: 42, status: 'pending', phone_id: 1, client_id: 7, charged: true, scheduled_at: '2026-05-01 09:30:00', credits_remaining: 99 }),
      ...errors('invalid_request', 'invalid_json', 'invalid_recipient', 'invalid_message', 'invalid_scheduled_at', 'no_active_phone', ...CLIENT_ERRORS, 'insufficient_credits', 'daily_limit_reached', 'conflict', 'recipient_opted_out', 'payload_too_large', 'no_active_gateway'),
      ...ANY_ERROR,
    },
  },
  'POST /smsapi/create-tasks': {
    operationId: 'createTasks',
    summary: 'Queue many SMS in one request',
    description:
      "Each item is checked, routed and charged exactly as create-task would be (an item to a number on your opt-out list is refused in place with `recipient_opted_out`); an item refused costs nothing. The answer has one entry per item, in order. A malformed list (not 1 to 1,000 items) is refused whole. An Idempotency-Key covers the whole request.",
    tags: ['Tasks'],
    security: CLIENT,
    parameters: [IDEMPOTENCY_KEY],
    requestBody: body(ref('CreateTasksRequest')),
    responses: {
      '200': success('One result per item.', ref('CreateTasksResult'), { results: [{ ok: true, id: 42, status: 'pending', phone_id: 1, client_id: 7, charged: true, scheduled_at: '2026-05-01 09:30:00', credits_remaining: 99 }, { ok: false, error: 'invalid_recipient', detail: 'recipient is not a phone number' }] }),
      ...errors('invalid_request', 'invalid_json', ...CLIENT_ERRORS, 'conflict', 'payload_too_large'),
      ...ANY_ERROR,
    },
  },
  'GET /smsapi/tasks': {
    operationId: 'listTasks',
    summary: 'List your tasks, newest first',
    tags: ['Tasks'],
    security: CLIENT,
    parameters: [
      { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: [...TASK_STATUSES] } },
      { name: 'since', in: 'query', required: false, description: 'Created at or after: an ISO 8601 instant with its offset, or a local datetime.', schema: { type: 'string' } },
      { name: 'until', in: 'query', required: false, description: 'Created before: as `since`.', schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: TASK_PAGE_MAX_LIMIT, default: TASK_PAGE_DEFAULT_LIMIT } },
      { name: 'cursor', in: 'query', required: false, description: 'A `next_cursor` from the page before.', schema: { type: 'string' } },
    ],
    responses: { '200': success('A page of tasks.', ref('TaskPage'), { items: [TASK_EXAMPLE], next_cursor: null }), ...errors('invalid_request', ...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'GET /smsapi/tasks/:id': {
    operationId: 'getTask',
    summary: 'One of your tasks',
    tags: ['Tasks'],
    security: CLIENT,
    parameters: [TASK_ID],
    responses: { '200': success('The task.', ref('Task'), TASK_EXAMPLE), ...errors(...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'POST /smsapi/tasks/:id/cancel': {
    operationId: 'cancelTask',
    summary: 'Cancel a task no worker has been handed yet',
    description: 'It ends `failed` with error `cancelled`, its credit refunded once. A claimed or final task is 409 `conflict`.',
    tags: ['Tasks'],
    security: CLIENT,
    parameters: [TASK_ID],
    responses: { '200': success('The task as it is now.', ref('Task')), ...errors(...CLIENT_ERRORS, 'not_found', 'conflict'), ...ANY_ERROR },
  },
  'POST /smsapi/register-phone': {
    operationId: 'registerPhone',
    summary: 'Pair a phone (Profile A)',
    description: 'Called by the gateway app with the API key it scanned. Profile B has no own phones: 404.',
    tags: ['Phones'],
    security: CLIENT,
    requestBody: body(ref('RegisterPhoneRequest')),
    responses: {
      '201': success('The phone and its worker token.', ref('RegisteredPhone'), { ok: true, phone_id: 3, worker_token: 'wt_…' }),
      ...errors('invalid_request', ...CLIENT_ERRORS, 'phone_limit_reached', 'not_found'),
      ...ANY_ERROR,
    },
  },
  'GET /smsapi/phones': {
    operationId: 'listPhones',
    summary: 'Your phones (Profile A) or VIP gateways (Profile B)',
    description:
      'Each with its state (`online`, `silent`, `disabled`), last contact, SIM limits and the tasks waiting for it. A phone is `silent` once its last contact is older than `SMSQ_PHONE_SILENT_S` (default 120 s); smsq then moves the tasks waiting for it that you did not pin to another online phone.',
    tags: ['Phones'],
    security: CLIENT,
    responses: { '200': success('Lowest id first.', ref('PhoneList'), { phones: [PHONE_EXAMPLE] }), ...errors(...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'PATCH /smsapi/phones/:id': {
    operationId: 'updatePhone',
    summary: "Set an own phone's number and SIM limits (Profile A)",
    description:
      "`number` is the phone's own number (its SIM's), read as create-task reads a recipient; null forgets it. An SMPP `submit_sm` whose `source_addr` is that number is sent from this phone. The SIM limits are what keeps a SIM healthy with its carrier: `daily_limit` (SMS parts per day in your time zone) and `per_minute` (the pace its worker keeps) against throttling for volume, `monthly_recipients` (distinct numbers a calendar month) against operators' caps on new recipients, `jitter` (a random extra pause between sends) against spam filters that flag machine-regular sending, and `sims` (1 or 2), so `sticky` routing keeps each recipient on one SIM. Limits count SMS parts, not tasks. Another client's phone, an unknown one, and any phone in Profile B (gateways are the admin's) are 404.",
    tags: ['Phones'],
    security: CLIENT,
    parameters: [PHONE_ID],
    requestBody: body(ref('PhoneLimitsRequest')),
    responses: {
      '200': success('The phone as it is now.', ref('Phone'), { ...PHONE_EXAMPLE, daily_limit: 500, per_minute: 10, monthly_recipients: 200, jitter: 20 }),
      ...errors('invalid_request', 'invalid_json', ...CLIENT_ERRORS, 'not_found'),
      ...ANY_ERROR,
    },
  },
  'POST /smsapi/phones/:id/resume': {
    operationId: 'resumePhone',
    summary: 'Resume a paused phone at once (Profile A)',
    description:
      "A phone is paused when the carrier (or Android) refused its sends for volume (`paused_until`, `pause_reason`; a `phone.paused` event): it gets no task for 1 minute, then 5, 15 and 60 on repeats within a day, and resumes by itself. This lifts the pause now (a `phone.resumed` event), say once you have changed the SIM or its plan; a phone not paused is answered as it is. Another client's phone, an unknown one, and any phone in Profile B are 404.",
    tags: ['Phones'],
    security: CLIENT,
    parameters: [PHONE_ID],
    responses: {
      '200': success('The phone as it is now.', ref('Phone'), PHONE_EXAMPLE),
      ...errors(...CLIENT_ERRORS, 'not_found'),
      ...ANY_ERROR,
    },
  },
  'GET /smsapi/sending-rules': {
    operationId: 'getSendingRules',
    summary: 'Your routing mode and send windows',
    description: 'How your tasks are spread over your phones, and the hours they go out in. A client that never set them has `first` (the first usable phone, as smsq always did), 30 sticky days and no windows.',
    tags: ['Sending rules'],
    security: CLIENT,
    responses: { '200': success('Your sending rules.', ref('SendingRules'), SENDING_RULES_EXAMPLE), ...errors(...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'PATCH /smsapi/sending-rules': {
    operationId: 'updateSendingRules',
    summary: 'Change your routing mode or send windows',
    description:
      '`routing_mode` spreads your tasks over your phones (`spread`) or keeps each recipient on one phone (`sticky`), so no SIM carries all the volume and replies come back to the number the recipient knows; `send_windows` keeps normal tasks to the hours you choose. The change applies to tasks not yet claimed.',
    tags: ['Sending rules'],
    security: CLIENT,
    requestBody: body(ref('SendingRulesRequest')),
    responses: {
      '200': success('Your sending rules now.', ref('SendingRules'), SENDING_RULES_EXAMPLE),
      ...errors('invalid_request', 'invalid_json', ...CLIENT_ERRORS),
      ...ANY_ERROR,
    },
  },
  'GET /smsapi/pending-tasks': {
    operationId: 'claimTask',
    summary: 'Claim one due task',
    description:
      'Two workers never claim the same task. A claim not reported by `claim_expires_at` returns the task to pending (attempt + 1); after the last attempt it fails, refunded. A poll is contact: it keeps the phone `online`. `parts` is what the message costs the phone\'s limits; `per_minute` is the pace the phone\'s owner set, `jitter` a random extra pause to take before sending, `sim` the SIM to send from (each only when set). A paused phone is given nothing until its pause ends.',
    tags: ['Delivery'],
    security: WORKER,
    parameters: [
      { name: 'wait', in: 'query', required: false, description: `Long poll: hold the request up to this many seconds until a task is due (above ${MAX_WAIT_S} counts as ${MAX_WAIT_S}).`, schema: { type: 'integer', minimum: 0 } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: `Claim up to this many due tasks at once (1 to ${MAX_CLAIM_BATCH}; anything else is 400): the answer is then \`{"tasks": [...]}\`, after the same wait, possibly empty. Ask for no more than the phone can send before \`claim_expires_at\`. Without it, one task or \`{}\`.`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_CLAIM_BATCH },
      },
    ],
    responses: {
      '200': success('A claimed task, or `{}` when nothing is due; with `limit`, the tasks claimed.', { oneOf: [ref('ClaimedTask'), ref('NothingDue'), ref('ClaimedTasks')] }),
      ...errors('invalid_request', 'unauthorized', 'phone_disabled', 'no_active_gateway'),
      ...ANY_ERROR,
    },
  },
  'POST /smsapi/task-status': {
    operationId: 'reportTaskStatus',
    summary: 'Report what became of a claimed task',
    description:
      'Only the token holding the claim may report (otherwise 404). The same final status again is a harmless 200; another status on a final task is 409. `failed` refunds once. `failed` with `retry: true` (the phone\'s word that nothing was sent) puts the task back in the queue instead and answers `pending`; `retry` with any other status is 400. With `retry: true`, `reason: "carrier_volume"` says the carrier or Android refused for volume: the phone is paused and its waiting tasks move to other phones.',
    tags: ['Delivery'],
    security: WORKER,
    requestBody: body(ref('TaskStatusRequest')),
    responses: { '200': success('Recorded.', ref('TaskStatusResult'), { ok: true, id: 42, status: 'sent' }), ...errors('invalid_request', 'invalid_json', 'unauthorized', 'not_found', 'conflict'), ...ANY_ERROR },
  },
  'POST /smsapi/task-statuses': {
    operationId: 'reportTaskStatuses',
    summary: 'Report many claimed tasks at once, and claim the next ones',
    description: `Up to ${MAX_REPORT_BATCH} task-status bodies in one request. Each is applied exactly as task-status would apply it alone, and answered in place, in order: its 200 body, or \`{"ok": false, "error", "detail", "http_status"}\` with what task-status would have refused it with; one refused report never fails the others. Here a report may also be \`{"id": N, "status": "released"}\`: a task this token claimed and never handed to the phone, given back with its attempt, due again at once and answered \`pending\` (404 when the token has no claim to give back); task-status does not take it. Only a malformed request (not an object, \`reports\` not a list of 1 to ${MAX_REPORT_BATCH}, a bad \`next\`) is refused whole (400), and a request smsq could not take at all (503) is retried whole: each report is idempotent. With \`next: N\` the answer also has \`tasks\`, up to N tasks claimed for this token without waiting (empty when none is due, or when the claim could not be made: the reports stand).`,
    tags: ['Delivery'],
    security: WORKER,
    requestBody: body(ref('TaskStatusesRequest')),
    responses: {
      '200': success('One result per report; `tasks` with `next`.', ref('TaskStatusesResult'), {
        results: [
          { ok: true, id: 42, status: 'sent' },
          { ok: false, error: 'not_found', detail: 'task not found', http_status: 404 },
        ],
        tasks: [],
      }),
      ...errors('invalid_request', 'invalid_json', 'unauthorized'),
      ...ANY_ERROR,
    },
  },
  'POST /smsapi/inbound': {
    operationId: 'storeReplies',
    summary: 'Store replies the phone received',
    description: "A reply belongs to the phone's client (Profile A) or, for a pooled gateway, to the client whose task last went from that gateway to that number. The same message synced twice is stored once.",
    tags: ['Delivery'],
    security: WORKER,
    requestBody: body(ref('InboundRequest')),
    responses: { '201': success('Stored.', ref('InboundResult'), { ok: true, stored: 2, duplicates: 0 }), ...errors('invalid_request', 'invalid_json', 'unauthorized'), ...ANY_ERROR },
  },
  'GET /smsapi/reply-keywords': {
    operationId: 'getReplyKeywords',
    summary: "The client's own reply keywords, for a worker that encrypts replies",
    description:
      "A worker that seals the replies it posts (docs/guide/encryption.md) must tell smsq which are opt-out or opt-in keywords, as smsq cannot read them: these are the client's own words, beside the standard ones. Empty for a token of no client's phone.",
    tags: ['Delivery'],
    security: WORKER,
    responses: { '200': success('The words.', ref('ReplyKeywords'), { opt_out_words: ['ODJAVA'], opt_in_words: [] }), ...errors('unauthorized'), ...ANY_ERROR },
  },
  'POST /smsapi/phone-health': {
    operationId: 'reportPhoneHealth',
    summary: "Report the phone's battery and connection",
    tags: ['Delivery'],
    security: WORKER,
    requestBody: body(ref('PhoneHealthRequest')),
    responses: { '200': success('Recorded.', ref('Ok'), { ok: true }), ...errors('invalid_request', 'invalid_json', 'unauthorized'), ...ANY_ERROR },
  },
  'POST /smsapi/webhooks': {
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    description: `Events are POSTed to it signed (see the \`webhooks\` of this document), at least once, retried with back-off for 24 hours. At most ${MAX_WEBHOOK_ENDPOINTS} endpoints per client (409 beyond).`,
    tags: ['Webhooks'],
    security: CLIENT,
    requestBody: body(ref('WebhookCreateRequest')),
    responses: { '201': success('The endpoint and its secret (shown once).', ref('WebhookEndpointCreated')), ...errors('invalid_request', 'invalid_json', ...CLIENT_ERRORS, 'conflict'), ...ANY_ERROR },
  },
  'GET /smsapi/webhooks': {
    operationId: 'listWebhooks',
    summary: 'Your webhook endpoints',
    tags: ['Webhooks'],
    security: CLIENT,
    responses: { '200': success('The endpoints.', ref('WebhookEndpointList')), ...errors(...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'DELETE /smsapi/webhooks/:id': {
    operationId: 'deleteWebhook',
    summary: 'Remove a webhook endpoint',
    tags: ['Webhooks'],
    security: CLIENT,
    parameters: [ENDPOINT_ID],
    responses: { '200': success('Removed.', ref('Ok'), { ok: true }), ...errors(...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'POST /smsapi/webhooks/:id/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    summary: "Give an endpoint a new secret",
    description: 'For 24 hours deliveries carry two `v1` signatures, the new secret\'s and the old one\'s, while the receiver switches.',
    tags: ['Webhooks'],
    security: CLIENT,
    parameters: [ENDPOINT_ID],
    responses: { '200': success('The new secret (shown once).', ref('WebhookSecretRotated')), ...errors(...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'POST /smsapi/webhooks/:id/enable': {
    operationId: 'enableWebhook',
    summary: 'Send to a disabled endpoint again',
    description: 'Events of changes made while it was disabled are not sent.',
    tags: ['Webhooks'],
    security: CLIENT,
    parameters: [ENDPOINT_ID],
    responses: { '200': success('The endpoint.', ref('WebhookEndpoint')), ...errors(...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'GET /smsapi/templates': {
    operationId: 'listTemplates',
    summary: 'Your message templates',
    tags: ['Templates'],
    security: CLIENT,
    responses: { '200': success('By name.', ref('TemplateList')), ...errors(...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'POST /smsapi/templates': {
    operationId: 'createTemplate',
    summary: 'Save a message template',
    description: 'create-task and create-tasks then take `template_id` and `variables` instead of `message`. A name you use already, or more than the most templates: 409.',
    tags: ['Templates'],
    security: CLIENT,
    requestBody: body(ref('TemplateRequest')),
    responses: { '201': success('Saved.', ref('Template')), ...errors('invalid_request', 'invalid_json', 'invalid_message', ...CLIENT_ERRORS, 'conflict'), ...ANY_ERROR },
  },
  'GET /smsapi/templates/:id': {
    operationId: 'getTemplate',
    summary: 'One of your templates',
    tags: ['Templates'],
    security: CLIENT,
    parameters: [TEMPLATE_ID],
    responses: { '200': success('The template.', ref('Template')), ...errors(...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'PUT /smsapi/templates/:id': {
    operationId: 'replaceTemplate',
    summary: 'Change a template',
    description: 'Tasks already queued from it keep the message they were made with.',
    tags: ['Templates'],
    security: CLIENT,
    parameters: [TEMPLATE_ID],
    requestBody: body(ref('TemplateRequest')),
    responses: { '200': success('The template now.', ref('Template')), ...errors('invalid_request', 'invalid_json', 'invalid_message', ...CLIENT_ERRORS, 'not_found', 'conflict'), ...ANY_ERROR },
  },
  'DELETE /smsapi/templates/:id': {
    operationId: 'deleteTemplate',
    summary: 'Delete a template',
    tags: ['Templates'],
    security: CLIENT,
    parameters: [TEMPLATE_ID],
    responses: { '200': success('Deleted.', ref('Ok'), { ok: true }), ...errors(...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'GET /smsapi/smpp-credentials': {
    operationId: 'listSmppCredentials',
    summary: 'Your SMPP credentials',
    description: 'What SMPP clients (Kannel, Jasmin, your own) bind to smsq\'s SMPP port with, revoked ones included; never a password.',
    tags: ['SMPP'],
    security: CLIENT,
    responses: { '200': success('Oldest first.', ref('SmppCredentialList'), { items: [SMPP_CREDENTIAL_EXAMPLE] }), ...errors(...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'POST /smsapi/smpp-credentials': {
    operationId: 'createSmppCredential',
    summary: 'Create SMPP credentials',
    description:
      `A \`system_id\` of your choice (or one smsq picks, \`c<client id>\` and a random suffix) and a password of 8 letters and digits that smsq generates: shown in this answer only, stored only as a salted hash. With \`source_addresses\`, a bind with it may submit only from those senders. A \`system_id\` any credential has (a revoked one too): 409 \`conflict\`. At most ${MAX_SMPP_CREDENTIALS} credentials that are not revoked; one more is 409 \`conflict\` too.`,
    tags: ['SMPP'],
    security: CLIENT,
    requestBody: { required: false, content: json(ref('SmppCredentialRequest')) },
    responses: {
      '201': success('Created; the password is shown this once.', ref('SmppCredentialCreated'), { ...SMPP_CREDENTIAL_EXAMPLE, last_bound_at: null, password: 'q7Rk2mXa' }),
      ...errors('invalid_request', 'invalid_json', ...CLIENT_ERRORS, 'conflict'),
      ...ANY_ERROR,
    },
  },
  'DELETE /smsapi/smpp-credentials/:id': {
    operationId: 'revokeSmppCredential',
    summary: 'Revoke SMPP credentials',
    description: 'Its binds are closed within seconds and it binds no more; its system_id stays taken. Revoking again answers it as it is. Another client\'s credential or an unknown one: 404.',
    tags: ['SMPP'],
    security: CLIENT,
    parameters: [SMPP_CREDENTIAL_ID],
    responses: { '200': success('The credential, revoked.', ref('SmppCredential'), { ...SMPP_CREDENTIAL_EXAMPLE, revoked_at: '2026-05-02T08:00:00.000Z' }), ...errors(...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'GET /smsapi/opt-outs': {
    operationId: 'listOptOuts',
    summary: 'Your opt-out list',
    description: `Numbers never sent to: create-task and create-tasks refuse them with 409 \`recipient_opted_out\` and charge nothing. A reply whose whole text is ${OPT_OUT_KEYWORDS.join(', ')} (case, surrounding spaces and punctuation ignored) or one of your own words puts its sender on the list; ${OPT_IN_KEYWORDS.join(' or ')}, or your own words, take it off.`,
    tags: ['Opt-outs'],
    security: CLIENT,
    parameters: [
      { name: 'limit', in: 'query', required: false, description: 'Numbers per page (default 100).', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
      { name: 'cursor', in: 'query', required: false, description: '`next_cursor` of the page before.', schema: { type: 'string' } },
      { name: 'search', in: 'query', required: false, description: 'Only numbers containing these digits; leading zeros are dropped, so the national form (`0645509401`) finds `+381645509401`.', schema: { type: 'string', pattern: '^\\+?\\d{1,15}$' } },
    ],
    responses: { '200': success('A page, newest first.', ref('OptOutPage')), ...errors('invalid_request', ...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'POST /smsapi/opt-outs': {
    operationId: 'addOptOuts',
    summary: 'Put numbers on your opt-out list',
    description: 'For numbers that opted out elsewhere (another system, a form). Tasks queued to them are cancelled and refunded unless `cancel_queued` is off; `recipient.opted_out` is sent for each number added.',
    tags: ['Opt-outs'],
    security: CLIENT,
    requestBody: body(ref('OptOutAddRequest')),
    responses: { '200': success('Added.', ref('OptOutsAdded'), { ok: true, added: 2, cancelled: 0 }), ...errors('invalid_request', 'invalid_json', 'invalid_recipient', ...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'DELETE /smsapi/opt-outs/:number': {
    operationId: 'removeOptOut',
    summary: 'Take a number off your opt-out list',
    description: 'Only when the recipient asked for your messages again. `recipient.opted_in` is sent.',
    tags: ['Opt-outs'],
    security: CLIENT,
    parameters: [OPT_OUT_NUMBER],
    responses: { '200': success('Removed.', ref('Ok'), { ok: true }), ...errors('invalid_recipient', ...CLIENT_ERRORS, 'not_found'), ...ANY_ERROR },
  },
  'GET /smsapi/opt-out-settings': {
    operationId: 'getOptOutSettings',
    summary: 'Your opt-out words and whether an opt-out cancels queued tasks',
    tags: ['Opt-outs'],
    security: CLIENT,
    responses: { '200': success('The settings.', ref('OptOutSettings')), ...errors(...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'PATCH /smsapi/opt-out-settings': {
    operationId: 'updateOptOutSettings',
    summary: 'Change your opt-out words or whether an opt-out cancels queued tasks',
    description: 'Your words count besides the standard ones, e.g. in your recipients\' language. A word may not both opt out and opt in.',
    tags: ['Opt-outs'],
    security: CLIENT,
    requestBody: body(ref('OptOutSettingsRequest')),
    responses: { '200': success('The settings now.', ref('OptOutSettings')), ...errors('invalid_request', 'invalid_json', ...CLIENT_ERRORS), ...ANY_ERROR },
  },
  'GET /smsapi/openapi.json': {
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    tags: ['Reference'],
    security: [],
    responses: { '200': { description: 'The OpenAPI 3.1 document of the public API.', content: { 'application/json': { schema: { type: 'object' } } } }, ...errors('method_not_allowed'), ...ANY_ERROR },
  },
};

/** `/smsapi/tasks/:id` as OpenAPI writes it: `/smsapi/tasks/{id}`. */
export function openApiPath(routePath: string): string {
  return routePath.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}
