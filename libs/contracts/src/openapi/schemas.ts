import { ERROR_STATUS } from '../errors.js';
import { REROUTE_REASONS, TASK_PRIORITIES, TASK_STATUSES } from '../dispatch/task-view.js';
import { BATCH_REPORTED_STATUSES, FAILURE_REASONS, REPORTED_STATUSES } from '../dispatch/task-report.js';
import { MAX_REPORTED_PARTS } from '../sms-segments.js';
import { MAX_SEALED_MESSAGE_LENGTH, MAX_SEALED_REPLY_LENGTH, REPLY_KEYWORDS, REPLY_MAX_CODE_POINTS } from '../sealed-messages.js';
import { OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS } from '../dispatch/keywords.js';
import { MAX_OPT_OUTS_PER_REQUEST, MAX_OWN_KEYWORDS, OPT_OUT_SOURCES } from '../dispatch/opt-outs.js';
import { WEBHOOK_EVENT_TYPES } from '../dispatch/webhooks.js';
import { MAX_JITTER_S, MAX_SIM_LIMIT, MAX_SIMS, PAUSE_REASONS, PHONE_STATES } from '../dispatch/phone-view.js';
import { CLOCK_TIME, DEFAULT_STICKY_DAYS, MAX_SEND_WINDOWS, MAX_STICKY_DAYS, ROUTING_MODES, WEEKDAYS } from '../dispatch/sending-rules.js';
import { MAX_TASKS_PER_REQUEST } from '../gateway/tasks-send.js';
import { MAX_TEMPLATES, TEMPLATE_NAME_MAX_LENGTH } from '../gateway/templates.js';
import { MAX_SMPP_CREDENTIALS, MAX_SMPP_SOURCE_ADDRESSES, SMPP_SOURCE_ADDRESS, SMPP_SYSTEM_ID } from '../gateway/smpp-credentials.js';
import { E164 } from '../phone-number.js';
import { MAX_CLAIM_BATCH, MAX_MESSAGES_PER_SYNC, MAX_REPORT_BATCH, MAX_TTL_S, MESSAGE_MAX_CODE_POINTS } from '../gateway/public-limits.js';

/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 takes it). */
export type JsonSchema = Record<string, unknown>;

/** A reference to one of `SCHEMAS` (the document's test resolves every one). */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const text = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const whole = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', description, ...extra });
const orNull = (schema: JsonSchema): JsonSchema => ({ ...schema, type: [schema['type'], 'null'] });
const constant = (value: unknown, description?: string): JsonSchema => ({ const: value, ...(description ? { description } : {}) });

/** An answer's object: every field listed is there (unless `optional`), and no other. */
function answer(properties: Record<string, JsonSchema>, options: { optional?: string[]; description?: string } = {}): JsonSchema {
  const optional = new Set(options.optional ?? []);
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    required: Object.keys(properties).filter((name) => !optional.has(name)),
    additionalProperties: false,
  };
}

/** A request's object: only `required` must be there; other fields are ignored. */
function request(properties: Record<string, JsonSchema>, required: string[], description?: string): JsonSchema {
  return { type: 'object', ...(description ? { description } : {}), properties, required };
}

const INSTANT = text('An ISO 8601 instant in UTC.', { format: 'date-time' });
const LOCAL_TIME_ANSWER = text("The client's local time, `YYYY-MM-DD HH:MM:SS`.", { pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$', examples: ['2026-05-01 09:30:00'] });
const LOCAL_TIME_REQUEST =
  "A local datetime in the client's time zone: `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DDTHH:MM`, `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD HH:MM`.";
const ENTITY_ID = { minimum: 1 };
const ENDPOINT_FIELDS = {
  id: whole('The endpoint.', ENTITY_ID),
  url: text('Where events are POSTed.', { format: 'uri' }),
  events: { type: 'array', description: 'The event types sent to it.', items: ref('WebhookEventType') },
  active: { type: 'boolean', description: 'False once smsq stopped sending to it: the receiver answered 410 Gone, or failed for 3 days.' },
  disabled_reason: orNull(text('Why it is not active.')),
  created_at: INSTANT,
};
const CLAIMED_TASK_FIELDS = {
  id: whole('The task.', ENTITY_ID),
  recipient: text('E.164.'),
  message: text('The text to send.'),
  phone_id: whole('The phone or gateway that sends it.', ENTITY_ID),
  client_id: whole('The client it belongs to.', ENTITY_ID),
  scheduled_at: LOCAL_TIME_ANSWER,
  gateway_url: orNull(text("The phone's or gateway's URL; null for a phone that registered none.")),
  attempt: whole('The claims of this task so far, this one included (1 on the first).', { minimum: 1 }),
  claim_expires_at: { ...INSTANT, description: 'Report by then, or the claim lapses and the task is due again (or, on its last attempt, failed and refunded).' },
  parts: whole('SMS parts (segments) the message costs, what the phone\'s pace counts, as carriers do: given with a pace (`per_minute` or `jitter`) when more than one. Absent: 1.', { minimum: 2 }),
  per_minute: whole("The pace the phone's owner set for it, SMS parts per minute: send no faster, so the carrier does not throttle the SIM for sending too fast. Absent when none is set (the worker keeps its own).", { minimum: 1, maximum: MAX_SIM_LIMIT }),
  jitter: whole("Before sending it, also wait a random 0 to this many seconds on top of `per_minute`'s pace, so the phone's sends are not evenly spaced (carriers flag machine-regular sending as spam). Absent when none is set.", { minimum: 0, maximum: MAX_JITTER_S }),
  sim: whole(`The SIM to send it from (1 to ${MAX_SIMS}): \`sticky\` routing keeps its recipient on one SIM, so replies come back to the number it knows. Absent: the phone's default SIM.`, { minimum: 1, maximum: MAX_SIMS }),
  encrypted: constant(true, "`message` is sealed with the client's passphrase (docs/guide/encryption.md): open it and send the plaintext, report its parts in `segments`; one you cannot open is reported `failed` with `reason: \"cannot_decrypt\"`. Absent: plain text."),
};
const SILENT_AFTER =
  'A phone is `online` while its last contact (its registration or pairing, a poll, a report or a health report) is within `SMSQ_PHONE_SILENT_S` seconds (default 120; it must exceed the 30 s long-poll cap), `silent` after that, and `disabled` while disabled, whatever its contact.';
const PARTS_NOT_TASKS = 'Limits count SMS parts (segments), as carriers do, not tasks: a message of 3 parts counts 3.';
const SIM_LIMITS = {
  daily_limit: orNull(
    whole(`SMS parts it may send per day, counted in the owner's time zone, so a carrier does not throttle or block the SIM for volume; 0 sends nothing; null: no limit. Tasks beyond it wait for the next day (or their expiry), or go to another phone. ${PARTS_NOT_TASKS}`, { minimum: 0, maximum: MAX_SIM_LIMIT }),
  ),
  per_minute: orNull(whole("SMS parts it may send per minute, the pace its worker keeps, so a carrier does not throttle the SIM for sending too fast; null: the worker's own.", { minimum: 1, maximum: MAX_SIM_LIMIT })),
  monthly_recipients: orNull(
    whole(
      "Distinct numbers it may send to per calendar month in the owner's time zone: many operators allow a SIM only 100 to 250 different recipients a month before they block it. At the cap it gets no new recipient (the task goes to another phone, or waits); numbers it already sent to this month still go through it (`sticky` routing keeps that count low). 0: nobody new; null: no cap.",
      { minimum: 0, maximum: MAX_SIM_LIMIT },
    ),
  ),
  jitter: orNull(
    whole("The longest random extra pause, in seconds, its worker takes between sends on top of `per_minute`, so its sends are not evenly spaced: carriers throttle or flag as spam a SIM that sends too regularly. null: none.", { minimum: 0, maximum: MAX_JITTER_S }),
  ),
  sims: whole(`SIMs it sends from (1 to ${MAX_SIMS}, default 1): with 2, \`sticky\` routing keeps each recipient on one SIM, and the worker is told which (\`sim\`).`, { minimum: 1, maximum: MAX_SIMS }),
};
const ROUTING_MODE = {
  type: 'string',
  enum: [...ROUTING_MODES],
  description:
    "How your tasks are spread over your phones (Profile B: your VIP gateways, then the shared pool as before). `first` (the default): the first usable phone (lowest id; in Profile B the least recently used gateway), as smsq always did. `spread`: the usable phone (enabled, online, not paused, room left under its limits) with the most room left today, then the least recently used, so no one SIM carries all the volume and gets throttled or flagged as spam. `sticky`: a recipient gets its messages from the phone (and SIM) that last sent to it while that phone is usable, so replies come back to the number the recipient knows and each SIM writes to fewer distinct numbers (operators cap them per month); a new recipient is placed as `spread` would, and when its phone is silent, disabled, paused or full the task goes to another usable phone and the recipient moves with it (`task.rerouted`). A task you pin with `phone_id` goes where you pinned it.",
};
const STICKY_DAYS_DESCRIPTION = `With \`sticky\`: how many days a recipient keeps its phone after its last message (default ${DEFAULT_STICKY_DAYS}).`;
const SEND_WINDOWS_DESCRIPTION =
  'Hours in which your normal tasks go out, in your time zone (`time_zone`): a task due outside them waits (charged when created, as a scheduled task is) and goes out when a window opens, oldest first; a `priority: "high"` task ignores them. Texts at night are what recipients report as spam and carriers act on. Empty: any hour.';

/** Every schema of the document, by name: the request rules and answers of the gateway's routes. */
export const SCHEMAS = {
  Error: answer(
    {
      error: { type: 'string', enum: Object.keys(ERROR_STATUS), description: 'A code from the fixed list; the HTTP status follows from it.' },
      detail: text('What was wrong, for a person.'),
    },
    { description: 'Every error answer.' },
  ),
  Ok: answer({ ok: constant(true) }),
  CreateTaskRequest: {
    ...request(
      {
        recipient: text('A phone number; normalised to E.164. Profile A reads a local number starting `06` as `+3816…`; Profile B reads a number without a country code in `SMSQ_DEFAULT_REGION` when set.', { examples: ['+381641234567'] }),
        message: text(`1 to ${MESSAGE_MAX_CODE_POINTS} Unicode code points; not only white space. With \`encrypted\`, the sealed text (\`$smsq$1$…\`, at most ${MAX_SEALED_MESSAGE_LENGTH} characters).`, {
          minLength: 1,
          maxLength: MAX_SEALED_MESSAGE_LENGTH,
        }),
        encrypted: {
          type: 'boolean',
          description:
            "`true`: `message` is sealed end to end with your passphrase (docs/guide/encryption.md), so smsq stores and serves it as given and only your worker reads it; the recipient stays readable, as routing and opt-outs need it. A message not in the sealed format is 400 `invalid_message`; not with `template_id`. Its `segments` are known once the worker sent it.",
        },
        phone_id: whole('Profile A: one of your active phones; Profile B: a gateway of your VIP pool. Anything else is ignored, as if it were left out.'),
        scheduled_at: text(`${LOCAL_TIME_REQUEST} A time in the past is due at once; left out, now.`),
        ttl: whole('Seconds from when the task is due; not sent by then, it ends `failed` with error `expired`, refunded once. Not with `expires_at`.', { minimum: 1, maximum: MAX_TTL_S }),
        expires_at: text(`${LOCAL_TIME_REQUEST} Not sent by then, the task ends \`failed\` with error \`expired\`, refunded once. Later than when the task is due; not with \`ttl\`.`),
        template_id: whole('Instead of `message`: one of your templates (`/smsapi/templates`), its `{placeholders}` filled from `variables`. The message it makes follows `message`\'s rules.', ENTITY_ID),
        variables: {
          type: 'object',
          description: 'With `template_id`: a value (text or a number) for each `{placeholder}` of the template; a missing one is 400 `invalid_request` naming it. Others are ignored.',
          additionalProperties: { type: ['string', 'number'] },
        },
        priority: {
          type: 'string',
          enum: [...TASK_PRIORITIES],
          description: '`high` (one-time codes, alerts): ignores your send windows (`/smsapi/sending-rules`) and is claimed before normal tasks. Left out: `normal`. Anything else is 400 `invalid_request`.',
        },
      },
      ['recipient'],
      'Either `message` or `template_id` (with `variables`), not both.',
    ),
    // A readable message keeps its own limit; only a sealed one may be as long as sealing makes it.
    if: { properties: { encrypted: { const: true } }, required: ['encrypted'] },
    else: { properties: { message: { maxLength: MESSAGE_MAX_CODE_POINTS } } },
  },
  CreatedTask: answer(
    {
      ok: constant(true),
      id: whole('The new task.', ENTITY_ID),
      status: constant('pending'),
      phone_id: whole('The phone (Profile A) or gateway (Profile B) it will go through.', ENTITY_ID),
      client_id: whole('Your client.', ENTITY_ID),
      charged: constant(true, 'Profile A only.'),
      scheduled_at: LOCAL_TIME_ANSWER,
      credits_remaining: whole('The balance after the debit (daily and bonus credits in Profile A).', { minimum: 0 }),
    },
    { optional: ['charged'] },
  ),
  CreateTasksRequest: request(
    { tasks: { type: 'array', minItems: 1, maxItems: MAX_TASKS_PER_REQUEST, items: ref('CreateTaskRequest') } },
    ['tasks'],
    `Up to ${MAX_TASKS_PER_REQUEST} create-task bodies; the body may be up to 4 MiB.`,
  ),
  RefusedItem: answer({ ok: constant(false), error: { type: 'string', enum: Object.keys(ERROR_STATUS) }, detail: text('What create-task would have answered.') }, { description: 'An item that queued nothing and cost nothing.' }),
  CreateTasksResult: answer({
    results: { type: 'array', description: "One per item, in the request's order.", items: { oneOf: [ref('CreatedTask'), ref('RefusedItem')] } },
  }),
  Task: answer({
    id: whole('The task.', ENTITY_ID),
    status: { type: 'string', enum: [...TASK_STATUSES], description: 'A delivered task stays `sent` (see `delivered_at`); expired and cancelled tasks are `failed`.' },
    phone_id: whole('The phone or gateway it is on now: smsq moves a waiting task off a silent or disabled phone (unless you pinned it with `phone_id`), and a retried failure may go to another phone.', ENTITY_ID),
    first_phone_id: whole('The phone or gateway it was first routed to.', ENTITY_ID),
    client_id: whole('Your client.', ENTITY_ID),
    scheduled_at: LOCAL_TIME_ANSWER,
    recipient: text('E.164.'),
    message: text('The text; with `encrypted`, the sealed text as you gave it.'),
    encrypted: { type: 'boolean', description: 'The message is sealed end to end: smsq cannot read it.' },
    attempts: whole('Claims so far.', { minimum: 0 }),
    sent_at: orNull(INSTANT),
    delivered_at: orNull({ ...INSTANT, description: "When the phone reported the carrier's delivery report." }),
    failed_at: orNull(INSTANT),
    error: orNull(text('Why it failed: the worker\'s reason, `expired` or `cancelled`.')),
    expires_at: orNull({ ...INSTANT, description: 'Not sent by then, it ends failed (`expired`); null: never.' }),
    segments: orNull(
      whole('SMS parts the message costs the phone: GSM-7 160/153 (extension characters count two), UCS-2 70/67. What the phone\'s limits count. null: an encrypted message its worker has not sent yet.', {
        minimum: 1,
      }),
    ),
    priority: { type: 'string', enum: [...TASK_PRIORITIES], description: '`high` ignores your send windows and is claimed before `normal` tasks.' },
    rerouted_because: orNull({
      type: 'string',
      enum: [...REROUTE_REASONS, null],
      description:
        'Why it last moved to another phone (a `task.rerouted` event says when): its phone was disabled, went silent, was paused because the carrier refused it for volume, or reached its daily limit; or the phone said it sent nothing (`retry`). A sticky recipient moves with it. Null while it never moved.',
    }),
  }),
  TaskPage: answer({
    items: { type: 'array', items: ref('Task'), description: 'Newest first.' },
    next_cursor: orNull(text('Pass as `cursor` for the page after this one; null on the last page.')),
  }),
  RegisterPhoneRequest: request(
    {
      name: text('A label, 1 to 100 characters.', { minLength: 1, maxLength: 100 }),
      device_id: text('A stable id from the app: the same one again returns the same phone with a fresh token (the old one is revoked).', { minLength: 1, maxLength: 200 }),
      url: text("Where the worker reaches the phone's gateway app (becomes the tasks' `gateway_url`).", { format: 'uri' }),
    },
    ['name'],
  ),
  RegisteredPhone: answer({ ok: constant(true), phone_id: whole('The phone.', ENTITY_ID), worker_token: text('Shown once: the phone claims and reports with it (`X-Worker-Token`).') }),
  ClaimedTask: answer(CLAIMED_TASK_FIELDS, { optional: ['parts', 'per_minute', 'jitter', 'sim', 'encrypted'], description: 'One due task, claimed for this token.' }),
  NothingDue: { type: 'object', maxProperties: 0, additionalProperties: false, description: 'Nothing is due now (`{}`).' },
  TaskStatusRequest: request(
    {
      id: whole('The task this token holds the claim of.', ENTITY_ID),
      status: { type: 'string', enum: [...REPORTED_STATUSES], description: '`delivered`: sent, and the carrier\'s delivery report came back (the task is then `sent` with `delivered_at`).' },
      error: orNull(text('Why it failed; kept to 1000 characters.')),
      next: { type: 'boolean', description: 'Also claim the next due task for this token, answered in `next`.' },
      retry: {
        type: 'boolean',
        description:
          'With `failed` only (any other status with `retry` is 400): `true` is the phone\'s own word that nothing was sent (no service, radio off, its own time limit ran out). The task goes back to the queue, on another online phone where there is one, an attempt counted, and is answered `pending`; after the last attempt it fails for good, refunded once. Without it a failure is final.',
      },
      reason: {
        type: 'string',
        enum: [...FAILURE_REASONS],
        description:
          'With `failed` only (otherwise 400): why nothing was sent, where the phone knows. `carrier_volume`, with `retry: true`: the carrier or Android refused for volume (SMS Gateway for Android\'s `RESULT_ERROR_LIMIT_EXCEEDED`, its Termux equivalent, an HTTP gateway\'s explicit word). smsq then pauses the phone (1 minute, then 5, 15 and 60 on repeats within a day; `phone.paused`) and moves its waiting tasks you did not pin to other usable phones; the task goes back to the queue as any retry does, never sent or charged twice. `cannot_decrypt`, without `retry`: the task is `encrypted` and the worker could not open it (no passphrase, or another); it fails for good, refunded once.',
      },
      segments: whole('With `sent` or `delivered`: an `encrypted` task\'s parts, counted from the plaintext the phone sent (what its limits count); ignored for a readable task, whose parts smsq counts itself.', { minimum: 1, maximum: MAX_REPORTED_PARTS }),
    },
    ['id', 'status'],
  ),
  TaskStatusResult: answer(
    {
      ok: constant(true),
      id: whole('The task.', ENTITY_ID),
      status: { type: 'string', enum: ['sent', 'failed', 'pending'], description: '`pending`: a failure reported with `retry: true` put the task back in the queue.' },
      next: { oneOf: [ref('ClaimedTask'), ref('NothingDue')], description: 'With `next: true` only.' },
    },
    { optional: ['next'] },
  ),
  ClaimedTasks: answer({
    tasks: { type: 'array', maxItems: MAX_CLAIM_BATCH, items: ref('ClaimedTask'), description: 'The tasks claimed for this token, oldest scheduled first, at most the number asked; empty when nothing is due.' },
  }),
  TaskStatusReport: request(
    {
      id: whole('The task this token holds the claim of.', ENTITY_ID),
      status: {
        type: 'string',
        enum: [...BATCH_REPORTED_STATUSES],
        description:
          'As in task-status, and here only `released`: a task this token claimed and never handed to the phone (say, the batch stopped behind a send that hung), given back at once. The claim is undone as if never made, its attempt and the phone\'s daily count given back, also after its lease returned it if nobody claimed it since; the task is due again at once and answered `pending`. When the token has no claim to give back (not its task, already sent or failed, claimed again by another) it is refused 404. Not with `error` or `retry` (400).',
      },
      error: orNull(text('Why it failed; kept to 1000 characters. Not with `released`.')),
      retry: { type: 'boolean', description: 'With `failed` only, as in task-status.' },
      reason: { type: 'string', enum: [...FAILURE_REASONS], description: 'With `failed` only, as in task-status: `carrier_volume` (with `retry: true`) pauses the phone; `cannot_decrypt` fails an encrypted task for good.' },
      segments: whole('With `sent` or `delivered` of an `encrypted` task only, as in task-status.', { minimum: 1, maximum: MAX_REPORTED_PARTS }),
    },
    ['id', 'status'],
    'One task-status body, without `next` (a report carrying `next` is refused in its place), or `{"id", "status": "released"}`.',
  ),
  TaskStatusesRequest: request(
    {
      reports: { type: 'array', minItems: 1, maxItems: MAX_REPORT_BATCH, items: ref('TaskStatusReport') },
      next: whole('Also claim up to this many due tasks for this token once the reports are in, without waiting; answered in `tasks`.', { minimum: 1, maximum: MAX_CLAIM_BATCH }),
    },
    ['reports'],
    `1 to ${MAX_REPORT_BATCH} reports, each applied as task-status would apply it alone.`,
  ),
  ReportedItem: answer(
    {
      ok: constant(true),
      id: whole('The task.', ENTITY_ID),
      status: { type: 'string', enum: ['sent', 'failed', 'pending'], description: 'As task-status answers it; `pending` for a `released` task given back.' },
    },
    { description: "task-status' 200 body for this report." },
  ),
  RefusedReport: answer(
    {
      ok: constant(false),
      error: { type: 'string', enum: Object.keys(ERROR_STATUS) },
      detail: text('What task-status would have answered.'),
      http_status: whole('The HTTP status task-status would have answered with (404 not held by this token, 409 already final otherwise, 400 malformed report, 503 retry later…).', { minimum: 400, maximum: 599 }),
    },
    { description: 'A report task-status would have refused: its error body, and the status it would have come with. Nothing of it was applied (503/500: it may have been; send it again).' },
  ),
  TaskStatusesResult: answer(
    {
      results: { type: 'array', description: "One per report, in the request's order.", items: { oneOf: [ref('ReportedItem'), ref('RefusedReport')] } },
      tasks: { type: 'array', maxItems: MAX_CLAIM_BATCH, items: ref('ClaimedTask'), description: 'With `next` only: the tasks claimed for this token, oldest scheduled first; empty when none is due.' },
    },
    { optional: ['tasks'] },
  ),
  InboundMessage: request(
    {
      from: text("The sender's number, normalised to E.164 as create-task normalises a recipient (Profile A: `06…` is `+3816…`), or, when it is no such number, an alphanumeric sender id or short code as written."),
      message: text(`At most ${REPLY_MAX_CODE_POINTS} characters; with \`encrypted\`, the sealed text (at most ${MAX_SEALED_REPLY_LENGTH} characters).`, { maxLength: MAX_SEALED_REPLY_LENGTH }),
      encrypted: { type: 'boolean', description: "`true`: the worker sealed the reply with the client's passphrase (docs/guide/encryption.md); stored and shown as given." },
      keyword: {
        type: 'string',
        enum: [...REPLY_KEYWORDS],
        description: "With `encrypted` only: the reply's plaintext is one of the client's opt-out (`opt_out`) or opt-in (`opt_in`) words, as the worker read it; smsq cannot read it, so this is what changes the sender's opt-out state. Left out: no keyword.",
      },
      received_at: text(`${LOCAL_TIME_REQUEST} Or an ISO 8601 instant with its offset. Left out: now.`),
      external_id: text("The phone's own id of the message: the same one synced twice is stored once.", { minLength: 1, maxLength: 200 }),
    },
    ['from', 'message'],
  ),
  InboundRequest: {
    description: `Replies the phone received: \`{"messages": [...]}\` (1 to ${MAX_MESSAGES_PER_SYNC}) or one message on its own.`,
    anyOf: [request({ messages: { type: 'array', minItems: 1, maxItems: MAX_MESSAGES_PER_SYNC, items: ref('InboundMessage') } }, ['messages']), ref('InboundMessage')],
  },
  ReplyKeywords: answer({
    opt_out_words: { type: 'array', items: { type: 'string' }, description: "The client's own opt-out words (upper case), beside the standard ones." },
    opt_in_words: { type: 'array', items: { type: 'string' }, description: "The client's own opt-in words (upper case), beside the standard ones." },
  }),
  InboundResult: answer({ ok: constant(true), stored: whole('New replies stored.', { minimum: 0 }), duplicates: whole('Replies already stored before.', { minimum: 0 }) }),
  PhoneHealthRequest: {
    ...request(
      {
        battery_percent: whole('0 to 100.', { minimum: 0, maximum: 100 }),
        charging: { type: 'boolean' },
        connection: text('For example `wifi` or `lte`: 1 to 40 printable characters.', { minLength: 1, maxLength: 40 }),
      },
      [],
      'What the phone reports of itself, shown in the dashboard; at least one field.',
    ),
    minProperties: 1,
  },
  Phone: answer(
    {
      id: whole('The phone (Profile A) or gateway (Profile B).', ENTITY_ID),
      name: text('Its label.'),
      number: orNull(text("Its SIM's number (E.164) as its owner recorded it: an SMPP `submit_sm` whose `source_addr` is this number is sent from it. null: not recorded.", { pattern: E164.source })),
      kind: { type: 'string', enum: ['own', 'gateway'], description: '`own`: your own phone (Profile A); `gateway`: a gateway of your VIP pool (Profile B).' },
      state: { type: 'string', enum: [...PHONE_STATES], description: SILENT_AFTER },
      active: { type: 'boolean', description: 'False while disabled.' },
      last_contact_at: { ...INSTANT, description: 'Its last contact of any kind, to within ten seconds; its creation at first.' },
      last_seen_at: orNull({ ...INSTANT, description: 'Its last poll for tasks; null if it never polled.' }),
      ...SIM_LIMITS,
      sent_today: whole('Tasks it reported sent since the start of today (UTC).', { minimum: 0 }),
      parts_today: whole("SMS parts it was handed today in the owner's time zone: what `daily_limit` counts.", { minimum: 0 }),
      recipients_this_month: whole("Distinct numbers it was given this calendar month in the owner's time zone: what `monthly_recipients` counts.", { minimum: 0 }),
      paused_until: orNull({
        ...INSTANT,
        description:
          'While paused, until when: the carrier (or Android) refused its sends for volume, so it gets no task for 1 minute, then 5, 15 and 60 on repeats within a day, and its waiting tasks you did not pin move to other usable phones. It resumes by itself; `POST /smsapi/phones/{id}/resume` lifts the pause at once. null: not paused.',
      }),
      pause_reason: { type: ['string', 'null'], enum: [...PAUSE_REASONS, null], description: '`carrier_volume`: the carrier or Android refused its sends for volume. null: not paused.' },
      waiting_tasks: whole('Tasks due now that wait for it.', { minimum: 0 }),
      health: orNull(
        answer(
          {
            battery_percent: orNull(whole('0 to 100.', { minimum: 0, maximum: 100 })),
            charging: orNull({ type: 'boolean' }),
            connection: orNull(text('For example `wifi`.')),
            reported_at: INSTANT,
          },
          { description: 'What its worker last reported (`phone-health`); null until it reports.' },
        ),
      ),
    },
    { description: `A phone or gateway. ${SILENT_AFTER}` },
  ),
  PhoneList: answer({ phones: { type: 'array', items: ref('Phone'), description: 'Lowest id first.' } }),
  PhoneLimitsRequest: {
    ...request(
      { number: orNull(text("The phone's own number, read as create-task reads a recipient (a local `06…` number is Serbian in Profile A); null forgets it. Not a usable number: 400 `invalid_request`.", { minLength: 1, examples: ['+381641234567'] })), ...SIM_LIMITS },
      [],
      `At least one field; a field left out stays as it is, null removes the limit or the number (\`sims\` cannot be null). Any other field is 400 \`invalid_request\`, as is a value out of its range or not a whole number. ${PARTS_NOT_TASKS}`,
    ),
    minProperties: 1,
    additionalProperties: false,
  },
  SendWindow: answer(
    {
      days: { type: 'array', minItems: 1, maxItems: WEEKDAYS.length, uniqueItems: true, items: { type: 'string', enum: [...WEEKDAYS] }, description: 'The days it opens on.' },
      from: text('When it opens, `HH:MM` in your time zone.', { pattern: CLOCK_TIME.source, examples: ['08:00'] }),
      to: text('When it closes, `HH:MM` (`24:00`: midnight). At or before `from`, it runs past midnight into the next day (`22:00` to `06:00`).', { pattern: CLOCK_TIME.source, examples: ['21:00'] }),
    },
    { description: 'Hours on the days named in which normal tasks go out.' },
  ),
  SendingRules: answer({
    routing_mode: ROUTING_MODE,
    sticky_days: whole(STICKY_DAYS_DESCRIPTION, { minimum: 1, maximum: MAX_STICKY_DAYS }),
    send_windows: { type: 'array', maxItems: MAX_SEND_WINDOWS, items: ref('SendWindow'), description: SEND_WINDOWS_DESCRIPTION },
    time_zone: text('Your time zone, the one the windows are read in (set by the operator).'),
    window_open: { type: 'boolean', description: 'Whether a normal task may go out now (always true with no windows).' },
    window_opens_at: orNull({ ...INSTANT, description: 'While the windows are closed, when they next open; null while open or with no windows.' }),
  }),
  SendingRulesRequest: {
    ...request(
      {
        routing_mode: ROUTING_MODE,
        sticky_days: whole(STICKY_DAYS_DESCRIPTION, { minimum: 1, maximum: MAX_STICKY_DAYS }),
        send_windows: { type: ['array', 'null'], maxItems: MAX_SEND_WINDOWS, items: ref('SendWindow'), description: `${SEND_WINDOWS_DESCRIPTION} Replaces the windows; \`[]\` or null removes them all.` },
      },
      [],
      'At least one field; a field left out stays as it is. Any other field is 400 `invalid_request`, as is a value not allowed.',
    ),
    minProperties: 1,
    additionalProperties: false,
  },
  WebhookEventType: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
  WebhookCreateRequest: request(
    {
      url: text('An http or https URL; a private or loopback address only where the operator allows it.', { format: 'uri', minLength: 1, maxLength: 2048 }),
      events: { type: 'array', minItems: 1, items: ref('WebhookEventType') },
    },
    ['url', 'events'],
  ),
  WebhookEndpoint: answer(ENDPOINT_FIELDS),
  WebhookEndpointCreated: answer({ ...ENDPOINT_FIELDS, secret: text('Signs every delivery (`Smsq-Signature`); shown once.') }),
  WebhookSecretRotated: answer({
    ...ENDPOINT_FIELDS,
    secret: text('The new secret; shown once.'),
    previous_secret_valid_until: { ...INSTANT, description: 'Until then deliveries carry a second `v1` signature made with the old secret.' },
  }),
  WebhookEndpointList: answer({ items: { type: 'array', items: ref('WebhookEndpoint') } }),
  Reply: answer({
    id: whole('The reply.', ENTITY_ID),
    from: text('The sender.'),
    message: text('The text; with `encrypted`, the sealed text the worker posted.'),
    encrypted: { type: 'boolean', description: "The worker sealed the reply with the client's passphrase (docs/guide/encryption.md)." },
    received_at: INSTANT,
    phone_id: orNull(whole('The phone or gateway that received it.')),
    in_reply_to_task_id: orNull(whole('The latest task sent to this number (from this phone when known) before the reply came; null when none went out.')),
  }),
  TaskEvent: answer({
    id: text('The event: the same on every delivery of it, so receivers can drop repeats.', { format: 'uuid' }),
    type: { type: 'string', enum: WEBHOOK_EVENT_TYPES.filter((type) => type.startsWith('task.')) },
    created_at: INSTANT,
    data: ref('Task'),
  }),
  PhoneEvent: answer({
    id: text('The event: the same on every delivery of it.', { format: 'uuid' }),
    type: { type: 'string', enum: WEBHOOK_EVENT_TYPES.filter((type) => type.startsWith('phone.')) },
    created_at: INSTANT,
    data: ref('Phone'),
  }),
  ReplyEvent: answer({
    id: text('The event: the same on every delivery of it.', { format: 'uuid' }),
    type: constant('message.received'),
    created_at: INSTANT,
    data: ref('Reply'),
  }),
  Template: answer({
    id: whole('The template.', ENTITY_ID),
    name: text('Yours to tell templates apart; unique among your templates.'),
    body: text('The message, with `{placeholders}` (letters, digits, `_`, `-`, `.`) filled by create-task from `variables`.'),
    placeholders: { type: 'array', items: { type: 'string' }, description: 'The placeholders of `body`, each once, in order of first use.' },
    created_at: INSTANT,
    updated_at: INSTANT,
  }),
  TemplateList: answer({ items: { type: 'array', items: ref('Template'), description: 'By name.' } }),
  TemplateRequest: request(
    {
      name: text(`1 to ${TEMPLATE_NAME_MAX_LENGTH} characters.`, { minLength: 1, maxLength: TEMPLATE_NAME_MAX_LENGTH }),
      body: text(`1 to ${MESSAGE_MAX_CODE_POINTS} Unicode code points, placeholders included; the message a create fills from it must also fit.`, { minLength: 1, maxLength: MESSAGE_MAX_CODE_POINTS }),
    },
    ['name', 'body'],
    `At most ${MAX_TEMPLATES} templates per client.`,
  ),
  SmppCredential: answer({
    id: whole('The credential.', ENTITY_ID),
    system_id: text('What the SMPP client binds with (`system_id`): 1 to 15 letters, digits, `_`, `-` or `.`, case-sensitive.', { pattern: SMPP_SYSTEM_ID.source }),
    source_addresses: { type: 'array', items: text('A sender number or name.'), description: 'The only `source_addr` values a bind with it may submit with; empty: any.' },
    created_at: INSTANT,
    last_bound_at: orNull({ ...INSTANT, description: 'Its last successful bind, to within a minute; null if it never bound.' }),
    revoked_at: orNull({ ...INSTANT, description: 'When it was revoked; null while it may bind.' }),
  }),
  SmppCredentialCreated: answer(
    {
      id: whole('The credential.', ENTITY_ID),
      system_id: text('What the SMPP client binds with (`system_id`).', { pattern: SMPP_SYSTEM_ID.source }),
      source_addresses: { type: 'array', items: { type: 'string' } },
      created_at: INSTANT,
      last_bound_at: { type: 'null' },
      revoked_at: { type: 'null' },
      password: text('The bind password (`password`): 8 letters and digits, shown in this answer only.', { pattern: '^[A-Za-z0-9]{8}$' }),
    },
    { description: 'A new credential and its password, which smsq does not keep.' },
  ),
  SmppCredentialList: answer({ items: { type: 'array', items: ref('SmppCredential'), description: 'Oldest first, revoked ones included.' } }),
  SmppCredentialRequest: {
    ...request(
      {
        system_id: text('1 to 15 letters, digits, `_`, `-` or `.`; left out, smsq picks one.', { pattern: SMPP_SYSTEM_ID.source }),
        source_addresses: {
          type: 'array',
          maxItems: MAX_SMPP_SOURCE_ADDRESSES,
          items: text('A number (`+` and up to 20 digits) or a sender name of 1 to 11 letters, digits, spaces, `.`, `_` or `-`.', { pattern: SMPP_SOURCE_ADDRESS.source }),
          description: 'Limits the credential to these senders; left out or empty: any.',
        },
      },
      [],
      `Both fields optional. The password is always smsq's. At most ${MAX_SMPP_CREDENTIALS} credentials that are not revoked per client.`,
    ),
    additionalProperties: false,
  },
  OptOutSource: { type: 'string', enum: [...OPT_OUT_SOURCES], description: 'Who changed it: a reply with a keyword, the API, or the dashboard.' },
  OptOut: answer({
    number: text('E.164.'),
    opted_out_at: { ...INSTANT, description: 'When it was put on the list: the reply\'s reception time, or the moment of the API or dashboard change.' },
    source: ref('OptOutSource'),
  }),
  OptOutPage: answer({
    items: { type: 'array', items: ref('OptOut'), description: 'Newest first.' },
    next_cursor: orNull(text('Pass as `cursor` for the page after this one; null on the last page.')),
  }),
  OptOutAddRequest: request(
    { numbers: { type: 'array', minItems: 1, maxItems: MAX_OPT_OUTS_PER_REQUEST, items: text('A phone number, read as create-task reads a recipient.') } },
    ['numbers'],
    'Any number not usable as a recipient refuses the whole request with 400 `invalid_recipient`, naming it.',
  ),
  OptOutsAdded: answer({
    ok: constant(true),
    added: whole('Numbers put on the list; the others were on it already and keep their date.', { minimum: 0 }),
    cancelled: whole('Queued tasks to them cancelled and refunded (error `opted_out`), unless `cancel_queued` is off.', { minimum: 0 }),
  }),
  OptOutSettings: answer({
    opt_out_words: { type: 'array', maxItems: MAX_OWN_KEYWORDS, items: text('Upper case, as replies are compared.'), description: `Your words that opt a sender out, besides ${OPT_OUT_KEYWORDS.join(', ')}.` },
    opt_in_words: { type: 'array', maxItems: MAX_OWN_KEYWORDS, items: text('Upper case, as replies are compared.'), description: `Your words that opt a sender back in, besides ${OPT_IN_KEYWORDS.join(', ')}.` },
    cancel_queued: { type: 'boolean', description: 'Whether an opt-out cancels and refunds the tasks queued to that number (default true).' },
  }),
  OptOutSettingsRequest: {
    ...request(
      {
        opt_out_words: { type: 'array', maxItems: MAX_OWN_KEYWORDS, items: text('One word of letters or digits, any script; compared without case.', { minLength: 1, maxLength: 32 }) },
        opt_in_words: { type: 'array', maxItems: MAX_OWN_KEYWORDS, items: text('One word of letters or digits, any script; compared without case.', { minLength: 1, maxLength: 32 }) },
        cancel_queued: { type: 'boolean' },
      },
      [],
      'A field left out stays as it is; a list given replaces the old one.',
    ),
    minProperties: 1,
  },
  RecipientEvent: answer({
    id: text('The event: the same on every delivery of it.', { format: 'uuid' }),
    type: { type: 'string', enum: WEBHOOK_EVENT_TYPES.filter((type) => type.startsWith('recipient.')) },
    created_at: INSTANT,
    data: answer({
      number: text('E.164.'),
      source: ref('OptOutSource'),
      message_id: orNull(whole('The reply whose keyword changed it; null for a change through the API or the dashboard.')),
    }),
  }),
} satisfies Record<string, JsonSchema>;
