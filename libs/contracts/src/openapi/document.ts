import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../dispatch/webhooks.js';
import { BODY_LIMIT_BYTES, TASK_STATUSES_BODY_LIMIT_BYTES } from '../gateway/public-limits.js';
import { CREATE_TASKS_BODY_LIMIT_BYTES } from '../gateway/tasks-send.js';
import type { Profile } from '../profile.js';
import { OPERATIONS, openApiPath, type RouteKey } from './operations.js';
import { ref, SCHEMAS, type JsonSchema } from './schemas.js';

export const OPENAPI_DOCUMENT_PATH = '/smsapi/openapi.json';

const DESCRIPTION = `smsq queues SMS for delivery by Android phones and delivery workers.

Client applications queue messages with an API key (\`X-API-Key\`, or \`?api_key=\`); phones and
workers claim due messages with a worker token (\`X-Worker-Token\`), send them and report back.

**Profiles.** The operator runs one of two. *A, own phones*: a client pairs its own phones
(\`register-phone\`); plans set daily credits that refill every 24 hours, and create-task answers
\`charged: true\`. *B, pooled gateways*: an admin registers gateways; a client starts with 10
credits that do not refill; \`register-phone\` answers 404.

**Phones.** A phone or gateway is \`online\` while its last contact (registration, a poll, a
report, a health report) is within \`SMSQ_PHONE_SILENT_S\` seconds (default 120, more than the
30 s long-poll cap), \`silent\` after that. Routing prefers online phones, and moves a waiting
task that no phone holds and you did not pin (\`phone_id\`) off a silent or disabled phone: the
task keeps its id and credit, and a \`task.rerouted\` event says so. \`phone.silent\` and
\`phone.online\` events tell you when a phone goes quiet and comes back.

**Keeping a SIM healthy.** Carriers throttle, flag or block a SIM that sends too much, too fast,
too regularly or to too many different numbers. A phone's limits (\`PATCH /smsapi/phones/{id}\`)
answer each: \`daily_limit\` and \`per_minute\`, \`jitter\`, \`monthly_recipients\`; they count SMS
parts, as carriers do, not tasks. Your sending rules (\`/smsapi/sending-rules\`) spread tasks
over your phones or keep each recipient on one (\`sticky\`), and keep normal tasks to your send
windows (\`priority: "high"\` ignores them). A phone whose carrier refuses for volume is paused
(\`phone.paused\`, \`phone.resumed\`) and its waiting tasks move. A client that sets none of this
sees smsq route and send exactly as before.

**Errors.** Every error is \`{"error": "<code>", "detail": "<text>"}\`; the code fixes the HTTP
status. A wrong method on a known path is 405 (with \`Allow\`), an unknown path 404. Bodies are
JSON up to ${BODY_LIMIT_BYTES / 1024} KiB (create-tasks ${CREATE_TASKS_BODY_LIMIT_BYTES / 1024 / 1024} MiB, task-statuses ${TASK_STATUSES_BODY_LIMIT_BYTES / 1024} KiB); larger is 413. Each API key has a
rate limit: 429 \`rate_limited\` with \`Retry-After\` (seconds).`;

const SIGNATURE_HEADER = {
  name: 'Smsq-Signature',
  in: 'header',
  required: true,
  description:
    '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; two `v1` during the 24 hours after a secret rotation. Compute the HMAC over the raw body, compare in constant time, and refuse an old `t` to refuse replays.',
  schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
};
const EVENT_HEADERS = [
  SIGNATURE_HEADER,
  { name: 'Smsq-Event-Id', in: 'header', required: true, description: "The event's id, as in the body.", schema: { type: 'string', format: 'uuid' } },
  { name: 'Smsq-Event-Type', in: 'header', required: true, schema: ref('WebhookEventType') },
];

const EVENT_SUMMARIES: Record<WebhookEventType, string> = {
  'task.sent': 'A task became sent',
  'task.delivered': 'A task became delivered',
  'task.failed': 'A task became failed',
  'task.expired': 'A task became expired',
  'task.cancelled': 'A task became cancelled',
  'task.rerouted': 'A task moved to another phone (its phone went silent or was disabled, or a retried failure); `data.phone_id` is the phone it is on now, `data.first_phone_id` the first',
  'message.received': 'A reply arrived',
  'phone.silent': "A phone went silent: no contact for SMSQ_PHONE_SILENT_S seconds; `data` is the phone",
  'phone.online': 'A silent phone is in contact again; `data` is the phone',
  'phone.paused': 'The carrier refused a phone\'s sends for volume: it is paused (1, 5, 15, then 60 minutes on repeats within a day) and its waiting tasks move to other phones; `data` is the phone, with `paused_until` and `pause_reason`',
  'phone.resumed': 'A paused phone takes tasks again, its pause over or lifted by its owner; `data` is the phone',
  'recipient.opted_out': 'A number went on your opt-out list: it replied STOP (or one of your words), or you added it',
  'recipient.opted_in': 'A number came off your opt-out list: it replied START (or one of your words), or you removed it',
};

/** What smsq POSTs to a client's endpoints (OpenAPI 3.1 `webhooks`). */
function webhooks(): Record<string, JsonSchema> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: EVENT_SUMMARIES[type],
          description: 'Delivered at least once, from a durable outbox, retried with back-off and jitter for 24 hours. 2xx is success; 410 disables the endpoint; anything else or a time-out is retried. Deduplicate on `id`.',
          security: [],
          parameters: EVENT_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: ref(type === 'message.received' ? 'ReplyEvent' : type.startsWith('phone.') ? 'PhoneEvent' : type.startsWith('recipient.') ? 'RecipientEvent' : 'TaskEvent') } } },
          responses: { '2XX': { description: 'Received.' }, '410': { description: 'Gone: smsq stops sending to this endpoint.' } },
        },
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 document of the public API, built from the route table (`OPERATIONS`) and the
 * schemas, themselves built from the limits and lists the gateway applies.
 */
export function openApiDocument(options: { profile?: Profile; serverUrl?: string } = {}): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, operation] of Object.entries(OPERATIONS) as Array<[RouteKey, (typeof OPERATIONS)[RouteKey]]>) {
    const [method, routePath] = key.split(' ') as [string, string];
    const path = openApiPath(routePath);
    paths[path] = { ...paths[path], [method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'smsq',
      version: '1',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
      ...(options.profile ? { 'x-smsq-profile': options.profile } : {}),
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'This smsq' }],
    tags: [
      { name: 'Tasks', description: 'Queue SMS and follow them (API key).' },
      { name: 'Phones', description: 'Pair phones (Profile A), see their state, record their number, set their SIM limits and resume a paused one (API key).' },
      { name: 'Sending rules', description: 'How your tasks are spread over your phones, and the hours they go out in (API key).' },
      { name: 'Delivery', description: 'What phones and workers call (worker token).' },
      { name: 'Webhooks', description: 'Signed status callbacks (API key).' },
      { name: 'Templates', description: 'Saved messages with placeholders (API key).' },
      { name: 'Opt-outs', description: 'Numbers that asked not to get your messages (API key).' },
      { name: 'SMPP', description: 'Credentials that SMPP clients bind to smsq\'s SMPP port with (API key).' },
      { name: 'Reference', description: 'This document.' },
    ],
    paths,
    webhooks: webhooks(),
    components: {
      schemas: SCHEMAS,
      headers: { RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } },
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: "A client's API key (dashboard, API keys)." },
        ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The same key in the query string, for clients that cannot set headers.' },
        WorkerToken: { type: 'apiKey', in: 'header', name: 'X-Worker-Token', description: "A phone's token (register-phone) or a worker token an admin issued (Profile B)." },
      },
    },
  };
}

/** The public routes, as the gateway's router spells them, that the document describes. */
export function documentedRoutes(): RouteKey[] {
  return Object.keys(OPERATIONS) as RouteKey[];
}
