/**
 * The dashboard's JSON API between its web front end and its back end (`apps/dashboard`), under
 * `/api`. Types (and the few bounds a form checks before it asks: MAX_SIM_LIMIT, MAX_JITTER_S,
 * MAX_SIMS, MAX_STICKY_DAYS, MAX_SEND_WINDOWS…), so the browser bundle and the server share them.
 *
 * Conventions: JSON in and out; times are ISO 8601 instants, except a task's `scheduledAt` (the
 * client's local wall-clock time); a row that carries times also names the IANA `timeZone` they
 * are to be shown in (its client's, or the service's default for what belongs to no client); errors are `{ error, detail }` with
 * the codes of the public API (401 `unauthorized` when not signed in, 403 `forbidden`-like cases
 * answer 404 `not_found` so nothing reveals another client's data); every POST, PUT, PATCH and
 * DELETE carries the header `X-CSRF-Token` with the token from `GET /api/auth/session`; the
 * session is an httpOnly, SameSite=Strict cookie. A client sees only its own data; an admin may
 * act for any client where a route says so.
 */

export type Role = 'client' | 'admin';

export interface SessionUser {
  id: number;
  email: string;
  role: Role;
  /** The client this user acts as; null for an admin without a client of its own. */
  clientId: number | null;
}

/**
 * POST /api/auth/password `{ currentPassword, newPassword }` (signed in) → 200 SessionAnswer: every other
 * session of the user ends; this browser gets a new session (and CSRF token). A wrong current password: 401.
 */
export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/**
 * POST /api/auth/password-reset → 202 `{ ok: true }` whether or not the address has an account:
 * a link to /reset-password goes to the address (or, without SMTP, to the dashboard's log).
 */
export interface PasswordResetRequest {
  email: string;
}

/** POST /api/auth/password-reset/complete → 200 `{ ok: true }`: the token from the link, once, within its hour. */
export interface PasswordReset {
  token: string;
  newPassword: string;
}

/** GET /api/settings → 200: the signed-in client's settings. */
export interface ClientSettings {
  clientName: string;
  /** The IANA zone the client's scheduled times are written in and its days are counted in. */
  timeZone: string;
}

/** PUT /api/settings/time-zone → 200 `ClientSettings`. */
export interface TimeZoneChange {
  timeZone: string;
}

/**
 * How the client's messages are spread over its phones (Profile B: its VIP gateways):
 * `first`, every SMS through the first usable phone until its daily limit (the specification's
 * rule, the default); `spread`, the usable phone with the most room left today, then the least
 * recently used; `sticky`, the phone (and SIM) that last sent to the recipient while it is
 * usable, a new recipient placed as `spread` would.
 */
export const ROUTING_MODES = ['first', 'spread', 'sticky'] as const;
export type RoutingMode = (typeof ROUTING_MODES)[number];

/** How long a sticky recipient keeps its phone after its last message, unless the client sets otherwise; at most MAX_STICKY_DAYS. */
export const DEFAULT_STICKY_DAYS = 30;
export const MAX_STICKY_DAYS = 365;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The most send windows a client may set. */
export const MAX_SEND_WINDOWS = 28;

/**
 * Hours in which normal tasks go out, on the days named, `HH:MM` in the client's time zone;
 * `to` at or before `from` runs past midnight (22:00–06:00).
 */
export interface SendWindow {
  days: Weekday[];
  from: string;
  to: string;
}

/**
 * GET /api/settings/sending → 200 SendingRules; PUT /api/settings/sending `SendingRulesChange`
 * (the whole object) → 200 SendingRules. A client that never set them has `first`, 30 days and
 * no windows. A task created while the windows are closed waits (charged at create) and goes
 * when one opens, oldest first; a `high` priority task ignores them. Bad values: 400
 * `invalid_request` naming the field.
 */
export interface SendingRules {
  routingMode: RoutingMode;
  stickyDays: number;
  /** Empty: messages go at any hour. */
  sendWindows: SendWindow[];
  /** The client's zone, which the windows are read in. */
  timeZone: string;
  /** Whether a normal task could go out now. */
  windowOpen: boolean;
  /** While the windows are closed, when they next open; null while open or with no windows. */
  windowOpensAt: string | null;
}

export interface SendingRulesChange {
  routingMode: RoutingMode;
  /** 1 to MAX_STICKY_DAYS. */
  stickyDays: number;
  /** At most MAX_SEND_WINDOWS, each with at least one day; empty removes them. */
  sendWindows: SendWindow[];
}

/** GET /api/auth/session → 200 (signed in or not: user null); carries the CSRF token for this browser. */
export interface SessionAnswer {
  user: SessionUser | null;
  csrfToken: string;
  profile: 'A' | 'B';
  /** The public API's base URL, e.g. for the pairing QR code. */
  apiBaseUrl: string;
  /** The time zone a client gets when none is chosen (SMSQ_TIMEZONE), as at sign-up. */
  defaultTimeZone: string;
  /** True when apiBaseUrl names the server's own machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0), which no phone can reach. */
  apiBaseUrlIsLoopback: boolean;
  /** Where this dashboard offers the reference worker (`smsq-worker.mjs`) for download; null when it is not built. */
  workerDownloadUrl: string | null;
  /** smsq's version (the root package.json's), shown in the footer. */
  version: string;
}

/** POST /api/auth/signup → 201 SessionAnswer; POST /api/auth/signin → 200 SessionAnswer; POST /api/auth/signout → 204. */
export interface Credentials {
  email: string;
  password: string;
}

/** GET /api/overview */
export interface Overview {
  clientId: number;
  clientName: string;
  plan: string;
  dailyAllowance: number;
  dailyRemaining: number;
  bonusRemaining: number;
  creditsRemaining: number;
  /** Profile A: when the daily credits refill; null in Profile B. */
  periodEndsAt: string | null;
  /** Last 30 days in the client's time zone, oldest first. */
  days: Array<{ day: string; sent: number; failed: number; pending: number }>;
  /** The client's IANA time zone. */
  timeZone: string;
  /** Profile A: the client's enabled phones that are silent, lowest id first; empty when none is (and in Profile B). */
  silentPhones: SilentPhone[];
}

/** An enabled phone with no contact for SMSQ_PHONE_SILENT_S, and the due tasks waiting for it. */
export interface SilentPhone {
  id: number;
  name: string;
  lastContactAt: string;
  waitingTasks: number;
}

/**
 * `online` while its last contact is within SMSQ_PHONE_SILENT_S (default 120 s), `silent` after
 * that, `disabled` while disabled.
 */
export type PhoneState = 'online' | 'silent' | 'disabled';

/** The most a SIM limit (`dailyLimit`, `perMinute`, `monthlyRecipients`) may be. */
export const MAX_SIM_LIMIT = 100_000;
/** The longest random extra pause (`jitter`, seconds) a phone may take between sends. */
export const MAX_JITTER_S = 600;
/** SIMs a phone may have. */
export const MAX_SIMS = 2;

/**
 * A phone's or gateway's SIM limits, as PATCH takes them: a field left out stays as it is, null
 * removes the limit. They count SMS parts (segments), as carriers do, not tasks.
 * `dailyLimit` 0–100,000 (parts a day in the owner's zone; 0 sends nothing), `perMinute`
 * 1–100,000 (the pace its worker keeps), `monthlyRecipients` 0–100,000 (distinct numbers it may
 * text in a calendar month; 0 texts nobody new), `jitter` 0–600 (a random extra pause of up to
 * that many seconds between sends), `sims` 1 or 2 (not null). Anything else: 400
 * `invalid_request` naming the field.
 */
export interface SimLimits {
  dailyLimit?: number | null;
  perMinute?: number | null;
  monthlyRecipients?: number | null;
  jitter?: number | null;
  sims?: number;
}

/** Why a phone is paused: the carrier (or Android) refused its sends for volume. */
export type PauseReason = 'carrier_volume';

/**
 * The limits, what they count so far and the pause of a phone or gateway: what the Phones and
 * Gateways pages show of each.
 */
export interface SimUsage {
  /** SMS parts a day in the owner's zone; null: no limit. */
  dailyLimit: number | null;
  /** SMS parts a minute; null: the worker's own pace. */
  perMinute: number | null;
  /** Distinct recipients a calendar month in the owner's zone; null: no cap. */
  monthlyRecipients: number | null;
  /** The longest random extra pause between sends, seconds; null: none. */
  jitter: number | null;
  /** 1 or 2. */
  sims: number;
  /** SMS parts it was handed today in the owner's zone: what `dailyLimit` counts. */
  partsToday: number;
  /** Distinct recipients it was given this month in the owner's zone: what `monthlyRecipients` counts. */
  recipientsThisMonth: number;
  /** While paused (the carrier refused for volume; 1, 5, 15, then 60 minutes), until when; null when not paused. */
  pausedUntil: string | null;
  /** Why it is paused; null when not paused. */
  pauseReason: PauseReason | null;
}

/** GET /api/keys → ApiKeyRow[]; POST /api/keys → 201 CreatedApiKey; DELETE /api/keys/:id → 204. */
export interface ApiKeyRow {
  id: number;
  prefix: string;
  /** What the client calls it; null when unnamed. POST /api/keys takes an optional `{ name }`. */
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedApiKey {
  id: number;
  prefix: string;
  /** Shown once. */
  apiKey: string;
  /** Profile A: what the gateway app's QR code carries: `{"base_url": …, "api_key": …}` as JSON text. */
  pairingPayload: string | null;
}

/**
 * GET /api/smpp-credentials → SmppCredentials; POST /api/smpp-credentials `SmppCredentialCreate`
 * → 201 CreatedSmppCredential; DELETE /api/smpp-credentials/:id → 204. The public API's rules: a
 * system_id any credential has (a revoked one too) is 409 `conflict`; at most 20 not revoked (400).
 */
export interface SmppCredentialRow {
  id: number;
  /** What the SMPP client binds with; case-sensitive. */
  systemId: string;
  /** The only senders a bind with it may submit from; empty: any. */
  sourceAddresses: string[];
  createdAt: string;
  /** Its last successful bind, to within a minute. */
  lastBoundAt: string | null;
  revokedAt: string | null;
}

export interface SmppCredentials {
  credentials: SmppCredentialRow[];
  /** Where SMPP clients connect: the public API's host name and SMSQ_SMPP_PORT (2775 unless set). */
  connection: { host: string; port: number };
}

/** Both optional: smsq picks a system_id (`c<client id>…`) when none is given. */
export interface SmppCredentialCreate {
  systemId?: string;
  sourceAddresses?: string[];
}

export interface CreatedSmppCredential {
  credential: SmppCredentialRow;
  /** 8 letters and digits; shown once, never stored. */
  password: string;
}

/** What a phone's worker last reported about the phone itself. */
export interface PhoneHealth {
  batteryPercent: number | null;
  charging: boolean | null;
  /** e.g. `wifi`, `cellular`, as the worker names it. */
  connection: string | null;
  reportedAt: string;
}

/**
 * GET /api/phones → PhoneRow[]; PATCH /api/phones/:id { name?, active?, number?, …SimLimits } → PhoneRow
 * (`number` as typed, read as a recipient is; null forgets it; not a usable number: 400 `invalid_request`);
 * POST /api/phones/:id/resume → 200 PhoneRow: a paused phone takes tasks again at once.
 */
export interface PhoneRow extends SimUsage {
  id: number;
  name: string;
  /** Its SIM's number (E.164) as recorded; an SMPP submit from this number is sent through this phone. */
  number: string | null;
  active: boolean;
  state: PhoneState;
  /** Its last contact of any kind (registration, a poll, a report, a health report). */
  lastContactAt: string;
  /** Due tasks waiting for it. */
  waitingTasks: number;
  /** Its last poll for tasks; null when it has not polled since it was registered. */
  lastSeenAt: string | null;
  /** Null until its worker reports any. */
  health: PhoneHealth | null;
  /** Tasks it reported sent since the start of today (UTC). */
  sentToday: number;
  url: string | null;
  /** The owning client's time zone. */
  timeZone: string;
}

export type TaskStatus = 'pending' | 'claimed' | 'sent' | 'failed';

/** `high` (one-time codes, alerts) ignores the client's send windows and is claimed before `normal` tasks. */
export type TaskPriority = 'normal' | 'high';

/** GET /api/tasks?status=&from=YYYY-MM-DD&to=YYYY-MM-DD&recipient=&page= → Page<TaskRow>; GET /api/tasks/:id → TaskRow; POST /api/tasks/:id/resend → 201 TaskRow (the new task). */
export interface TaskRow {
  id: number;
  clientId: number;
  /** The phone it is on now: smsq moves a waiting task off a silent or disabled phone. */
  phoneId: number;
  /** The phone it was first routed to. */
  firstPhoneId: number;
  recipient: string;
  /** The text; when `encrypted`, the sealed message (`$smsq$1$…`, docs/guide/encryption.md), which only the page can open with the passphrase. */
  message: string;
  /** Sealed end to end in the client's browser or system: smsq cannot read `message`. */
  encrypted: boolean;
  status: TaskStatus;
  /** The client's local wall-clock time in `timeZone`, `YYYY-MM-DD HH:MM:SS`: not an instant. */
  scheduledAt: string;
  attempts: number;
  sentAt: string | null;
  /** When the phone reported the carrier's delivery report; the status stays `sent`. */
  deliveredAt: string | null;
  failedAt: string | null;
  error: string | null;
  /** Not sent by then, it fails with the error `expired`; null when it never expires. */
  expiresAt: string | null;
  createdAt: string;
  /** How many SMS the message takes; null for an encrypted message its phone has not sent yet (smsq cannot count what it cannot read). */
  segments: number | null;
  priority: TaskPriority;
  /** Why it last moved to another phone; null while it is on the first. */
  reroutedBecause: RerouteReason | null;
  /** The client's time zone: scheduledAt is in it, and the other times are shown in it. */
  timeZone: string;
}

/** Why a task last moved to another phone (the contracts' `REROUTE_REASONS`). */
export type RerouteReason = 'phone_disabled' | 'phone_silent' | 'phone_paused' | 'phone_full' | 'retry';

/**
 * One message of Send, as create-task takes it: its text, or one of the client's templates
 * (`templateId`) filled from `variables`; `scheduledAt` is the client's local time, like a
 * task's; `priority` `high` ignores the send windows and goes first. `encrypted`: `message` is a
 * sealed message the page made with the passphrase (docs/guide/encryption.md); never with a template,
 * which smsq would have to read to fill.
 */
export type OutgoingSms = { recipient: string; scheduledAt?: string; priority?: TaskPriority } & ({ message: string; encrypted?: boolean } | { templateId: number; variables: Record<string, string> });

/**
 * POST /api/send `{ messages: OutgoingSms[], idempotencyKey }` → 200 `{ results: SendResult[] }`,
 * one per message in order: queued through the public API's rules and credits (at most 1,000; a
 * refused message costs nothing). The same idempotencyKey again answers the first result and
 * charges nothing: a retry after a lost answer is safe.
 */
export type SendResult = { ok: true; id: number; scheduledAt: string; creditsRemaining: number } | { ok: false; error: string; detail: string };

/**
 * POST /api/send/check `{ messages }` → 200 `{ results: CheckResult[] }`: the same rules, nothing
 * queued. `segments` is null for an encrypted message: smsq cannot count what it cannot read.
 */
export type CheckResult = { ok: true; recipient: string; message: string; scheduledAt: string; segments: number | null } | { ok: false; error: string; detail: string };

/** A status webhook endpoint of the client; times are shown in `timeZone`. */
export interface WebhookRow {
  id: number;
  url: string;
  events: string[];
  /** False once smsq stopped sending to it (410 Gone, or failing for days): `disabledReason` says which. */
  active: boolean;
  disabledReason: string | null;
  createdAt: string;
  timeZone: string;
}

/** GET /api/webhooks → 200: the client's endpoints, and the events an endpoint may take. POST /api/webhooks/:id/enable → 200 WebhookRow: sent to again. */
export interface WebhooksAnswer {
  endpoints: WebhookRow[];
  eventTypes: string[];
}

/** POST /api/webhooks `{ url, events }` → 201, and POST /api/webhooks/:id/rotate → 200: the endpoint and its new secret, shown once. */
export interface CreatedWebhook {
  webhook: WebhookRow;
  secret: string;
}

/**
 * GET /api/webhooks/:id/deliveries → 200 WebhookDeliveryRow[] (the latest 20, newest first);
 * POST /api/webhooks/:id/test → 201 (a `webhook.test` event queued); POST
 * /api/webhooks/deliveries/:deliveryId/redeliver → 200 (the same event and body, due now).
 */
export interface WebhookDeliveryRow {
  id: string;
  eventId: string;
  type: string;
  taskId: number | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  timeZone: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** GET /api/inbox?search=&page= → Page<InboxRow>, newest first; the page groups them by number. */
export interface InboxRow {
  id: number;
  from: string;
  /** The text; when `encrypted`, the sealed message its worker made, which only the page can open with the passphrase. */
  message: string;
  encrypted: boolean;
  receivedAt: string;
  phoneId: number | null;
  /** The client's time zone. */
  timeZone: string;
}

/**
 * GET /api/conversations?search=&cursor= → 200 ConversationPage: one thread per number, newest
 * first, 30 a page. `search` with only digits (and +, spaces, dashes) finds numbers containing
 * them; any other text finds threads whose messages (sent or received) contain it.
 */
export interface ConversationRow {
  number: string;
  lastAt: string;
  /** The start of the last message; not its text when `lastEncrypted` (a cut sealed message, which opens to nothing). */
  lastText: string;
  lastEncrypted: boolean;
  lastDirection: 'out' | 'in';
  /** Replies received since the thread was last opened. */
  unread: number;
  timeZone: string;
}

export interface ConversationPage {
  items: ConversationRow[];
  nextCursor: string | null;
}

/** One message of a thread: a task (with its status) or a reply; `encrypted`: `message` is a sealed message. */
export type ThreadMessage =
  | { kind: 'out'; id: number; at: string; message: string; encrypted: boolean; status: string; error: string | null }
  | { kind: 'in'; id: number; at: string; message: string; encrypted: boolean; phoneId: number | null };

/**
 * GET /api/conversations/:number?before= → 200: a page of the thread, oldest first, and
 * `before` for the older page (null at its start). POST /api/conversations/:number/read → 204:
 * its replies are read. POST /api/conversations/:number/reply `{ message, encrypted?, idempotencyKey }` →
 * 200 SendResult: queued as Send would, through `replyPhone` when it is set (the client's phone
 * the latest reply came through, while it is online).
 */
export interface ConversationThread {
  number: string;
  messages: ThreadMessage[];
  before: string | null;
  replyPhone: { id: number; name: string } | null;
  optedOut: boolean;
  timeZone: string;
}

/** `encrypted`: `message` is a sealed message the page made with the passphrase, as for Send. */
export interface ConversationReply {
  message: string;
  encrypted?: boolean;
  idempotencyKey: string;
}

/**
 * GET /api/templates → 200 TemplateRow[] (by name); POST /api/templates `TemplateBody` → 201;
 * PUT /api/templates/:id `TemplateBody` → 200; DELETE /api/templates/:id → 204. The same rules as
 * /smsapi/templates: a name the client uses already is 409 `conflict`.
 */
export interface TemplateRow {
  id: number;
  name: string;
  body: string;
  placeholders: string[];
  updatedAt: string;
  timeZone: string;
}

export interface TemplateBody {
  name: string;
  body: string;
}

/**
 * GET /api/opt-outs?search=&cursor=&limit= → OptOutPage: the client's opt-out list, newest first
 * (`limit` 1–1000, default 50; `search` digits of a number). POST /api/opt-outs `{ numbers }` →
 * 200 OptOutsAdded (each read as create-task reads a recipient; a bad one is 400
 * `invalid_recipient` naming it; at most 1,000 a request). DELETE /api/opt-outs/:number → 204.
 */
export interface OptOutRow {
  number: string;
  optedOutAt: string;
  /** `reply`: the number replied a keyword; `api` or `dashboard`: the client put it there. */
  source: 'reply' | 'api' | 'dashboard';
  timeZone: string;
}

export interface OptOutPage {
  items: OptOutRow[];
  nextCursor: string | null;
}

export interface OptOutsAdded {
  added: number;
  cancelled: number;
}

/**
 * GET /api/opt-out-settings → 200; PUT /api/opt-out-settings (the whole object) → 200: the
 * client's own keywords besides the standard ones (`standardOptOut`, `standardOptIn`, read only),
 * and whether an opt-out cancels and refunds what is queued to the number.
 */
export interface OptOutSettings {
  optOutWords: string[];
  optInWords: string[];
  cancelQueued: boolean;
  standardOptOut: string[];
  standardOptIn: string[];
}

/** Admin: GET /api/admin/clients?search=&page= → Page<ClientRow>; POST /api/admin/clients { name, plan?, timezone?, email?, password? } → 201 ClientRow. */
export interface ClientRow {
  id: number;
  name: string;
  timezone: string;
  createdAt: string;
  /** While set, an admin has the client disabled: its API keys answer 401; nothing else changes. */
  disabledAt: string | null;
}

/** Admin: GET /api/admin/clients?search=&page= → Page<ClientListRow>: each client with its plan and credits. */
export interface ClientListRow extends ClientRow {
  /** Both null when billing did not answer in time: the list shows without them. */
  plan: string | null;
  creditsRemaining: number | null;
}

/**
 * Admin: GET /api/admin/clients/:id → ClientDetail;
 * PUT /api/admin/clients/:id/plan { plan, daily?, phones? } → ClientDetail;
 * POST /api/admin/clients/:id/credits { amount } → ClientDetail;
 * POST /api/admin/clients/:id/keys → 201 CreatedApiKey; DELETE /api/admin/keys/:id → 204;
 * PUT /api/admin/clients/:id/disabled { disabled } → ClientDetail.
 */
export interface ClientDetail {
  client: ClientRow;
  plan: string;
  dailyAllowance: number;
  phoneLimit: number;
  dailyRemaining: number;
  bonusRemaining: number;
  creditsRemaining: number;
  periodEndsAt: string | null;
  keys: ApiKeyRow[];
  days: Overview['days'];
}

/**
 * Admin (Profile B): GET /api/admin/gateways → GatewayRow[]; POST { name, url, clientId? } → 201 GatewayRow;
 * PATCH /api/admin/gateways/:id { active?, number?, …SimLimits } (at least one; `number` as typed, read as a recipient is, null forgets it) → GatewayRow;
 * POST /api/admin/gateways/:id/resume → 200 GatewayRow: a paused gateway takes tasks again at once.
 * Its days and months (`dailyLimit`, `monthlyRecipients`) are counted in the service's time zone (SMSQ_TIMEZONE).
 */
export interface GatewayRow extends SimUsage {
  id: number;
  name: string;
  /** Its SIM's number (E.164) as recorded; an SMPP submit from this number is sent through this gateway. */
  number: string | null;
  url: string | null;
  clientId: number | null;
  active: boolean;
  state: PhoneState;
  lastContactAt: string;
  waitingTasks: number;
  lastAssignedAt: string | null;
  lastSeenAt: string | null;
  /** The VIP client's time zone; the service's default for a gateway of the shared pool. */
  timeZone: string;
}

/** Admin: GET /api/admin/worker-tokens → WorkerTokenRow[]; POST { phoneId? } → 201 { id, prefix, workerToken }; DELETE /api/admin/worker-tokens/:id → 204. */
export interface WorkerTokenRow {
  id: number;
  phoneId: number | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedWorkerToken {
  id: number;
  prefix: string;
  workerToken: string;
}

/** Admin: GET /api/admin/system. */
export interface SystemOverview {
  tasksByStatus: Record<TaskStatus, number>;
  /** Last 60 minutes, oldest first. */
  sentPerMinute: Array<{ minute: string; sent: number }>;
  services: Array<{ name: string; ready: boolean; detail: string }>;
}
