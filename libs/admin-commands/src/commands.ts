import {
  InvalidRequestError,
  MAX_JITTER_S,
  MAX_SIM_LIMIT,
  MAX_SIMS,
  MAX_STICKY_DAYS,
  MIN_SIM_LIMIT,
  NotFoundError,
  Patterns,
  PLAN_NAMES,
  type AccountView,
  type AdminCreated,
  type ClientCreated,
  type ClientDetails,
  type ClientPhoneRegistered,
  type ClientView,
  type KeyCreated,
  type PhoneKind,
  type PhoneLimitsCommand,
  type PhoneResumeCommand,
  type PhoneView,
  type PlanView,
  ROUTING_MODES,
  sendingRulesBody,
  type RoutingMode,
  type SendingRulesGetQuery,
  type SendingRulesUpdateCommand,
  type SendingRulesView,
  type SmppCredentialCreateCommand,
  type SmppCredentialCreated,
  type SmppCredentialListQuery,
  type SmppCredentialRevokeCommand,
  type SmppCredentialView,
  type PhoneNumberSetCommand,
  type WebhookCreated,
  type WebhookEndpointView,
  WEBHOOK_EVENT_TYPES,
  type WorkerTokenCreated,
} from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { Flags, optionalFlag, requiredFlag, type FlagSpec } from './flags.js';
import { formatSendWindowsText, parseSendWindowsText } from './send-windows-text.js';

export interface Services {
  gateway: ServiceClient;
  billing: ServiceClient;
  dispatch: ServiceClient;
  dashboard: ServiceClient;
}

/** One command of the admin command line: what it does, the flags it takes, and the run that reads them. */
export interface AdminCommand {
  /** One line: what it does and what it prints. */
  summary: string;
  /** Every flag it reads; any other is refused (`Flags.rejectUnknown`). */
  flags: readonly FlagSpec[];
  run: (flags: Flags, services: Services) => Promise<object>;
}

const CLIENT = requiredFlag('client', 'ID', 'the client');
const OWN_PHONE = requiredFlag('phone', 'ID', 'the phone (an own phone, Profile A)');
const GATEWAY = requiredFlag('phone', 'ID', 'the gateway (Profile B)');
/** `phone set` and `gateway set`: a flag left out leaves its value as it is. */
const LIMIT_FLAGS = [
  optionalFlag('number', 'E.164|none', 'its own number, read as create-task reads a recipient (an SMPP submit from it is sent through it); none forgets it'),
  optionalFlag('daily', 'N|none', `SMS parts a day, ${MIN_SIM_LIMIT.dailyLimit} to ${MAX_SIM_LIMIT} (0 sends nothing); none removes the limit`),
  optionalFlag('per-minute', 'N|none', `SMS parts a minute, ${MIN_SIM_LIMIT.perMinute} to ${MAX_SIM_LIMIT}; none removes the limit`),
  optionalFlag('monthly-recipients', 'N|none', `distinct numbers a calendar month, ${MIN_SIM_LIMIT.monthlyRecipients} to ${MAX_SIM_LIMIT} (0: none new); none removes the limit`),
  optionalFlag('jitter', 'S|none', `the longest random extra pause between sends, 0 to ${MAX_JITTER_S} seconds; none removes it`),
  optionalFlag('sims', Array.from({ length: MAX_SIMS }, (_, index) => index + 1).join('|'), 'how many SIMs it sends from'),
];

/** The commands of DESIGN.md §5; each prints one JSON object in the contract's field names. */
export const COMMANDS: Record<string, AdminCommand> = {
  'client create': {
    summary: 'Create a client (and its account); prints its client_id.',
    flags: [
      requiredFlag('name', 'NAME', "the client's name"),
      optionalFlag('plan', 'PLAN', `its plan (Profile A): ${PLAN_NAMES.join(', ')}; free when left out`),
      optionalFlag('timezone', 'TZ', 'its IANA time zone; SMSQ_TIMEZONE when left out'),
    ],
    run: async (flags, { gateway }) => {
      const command = { name: flags.text('name'), plan: flags.optionalText('plan'), timezone: flags.optionalText('timezone') };
      flags.rejectUnknown();
      const created = await gateway.send<ClientCreated>(Patterns.gateway.clientCreate, command);
      return { client_id: created.clientId };
    },
  },
  'client show': {
    summary: 'Print a client with its plan and credits.',
    flags: [CLIENT],
    run: async (flags, { gateway }) => {
      const query = { clientId: flags.integer('client') };
      flags.rejectUnknown();
      const { client, account } = await gateway.send<ClientDetails>(Patterns.gateway.clientShow, query);
      return { client_id: client.id, name: client.name, timezone: client.timezone, created_at: client.createdAt, ...accountFields(account) };
    },
  },
  'client disable': {
    summary: "Disable a client: its API keys answer 401 at once on every gateway; its tasks, credits and phones are kept.",
    flags: [CLIENT],
    run: (flags, services) => setClientDisabled(flags, services, true),
  },
  'client enable': {
    summary: 'Enable a disabled client again, as it was.',
    flags: [CLIENT],
    run: (flags, services) => setClientDisabled(flags, services, false),
  },
  'client set-timezone': {
    summary: "Set a client's time zone: new local times are read in it; queued tasks keep their moment.",
    flags: [CLIENT, requiredFlag('timezone', 'TZ', 'an IANA time zone, such as Europe/Belgrade')],
    run: async (flags, { gateway }) => {
      const command = { clientId: flags.integer('client'), timezone: flags.text('timezone') };
      flags.rejectUnknown();
      const client = await gateway.send<ClientView>(Patterns.gateway.clientSetTimezone, command);
      return { client_id: client.id, timezone: client.timezone };
    },
  },
  'key create': {
    summary: 'Create an API key for a client; prints the key once.',
    flags: [CLIENT, optionalFlag('name', 'NAME', 'a name to tell its keys apart')],
    run: async (flags, { gateway }) => {
      const command = { clientId: flags.integer('client'), name: flags.optionalText('name') };
      flags.rejectUnknown();
      const key = await gateway.send<KeyCreated>(Patterns.gateway.keyCreate, command);
      return { key_id: key.keyId, api_key: key.apiKey, prefix: key.prefix };
    },
  },
  'key revoke': {
    summary: 'Revoke an API key, at once on every gateway.',
    flags: [requiredFlag('key', 'ID', 'the key (its key_id)')],
    run: async (flags, { gateway }) => {
      const command = { keyId: flags.integer('key') };
      flags.rejectUnknown();
      return gateway.send(Patterns.gateway.keyRevoke, command);
    },
  },
  'credits grant': {
    summary: 'Give a client credits; prints what it has left.',
    flags: [CLIENT, requiredFlag('amount', 'N', 'how many credits')],
    run: async (flags, { billing, gateway }) => {
      const command = { clientId: flags.integer('client'), amount: flags.integer('amount') };
      flags.rejectUnknown();
      await requireClient(gateway, command.clientId);
      const account = await billing.send<AccountView>(Patterns.billing.creditsGrant, command);
      return { credits_remaining: account.creditsRemaining };
    },
  },
  'plan set': {
    summary: "Put a client on a plan (Profile A), optionally with its own daily credits or phone limit; prints the plan's terms.",
    flags: [
      CLIENT,
      requiredFlag('plan', 'PLAN', PLAN_NAMES.join(', ')),
      optionalFlag('daily', 'N', "daily credits instead of the plan's"),
      optionalFlag('phones', 'N', "the most phones instead of the plan's"),
    ],
    run: async (flags, { billing, gateway }) => {
      const command = {
        clientId: flags.integer('client'),
        plan: flags.text('plan'),
        daily: flags.optionalInteger('daily'),
        phones: flags.optionalInteger('phones'),
      };
      flags.rejectUnknown();
      await requireClient(gateway, command.clientId);
      const plan = await billing.send<PlanView>(Patterns.billing.planSet, command);
      return { client_id: plan.clientId, plan: plan.plan, daily_allowance: plan.dailyAllowance, phone_limit: plan.phoneLimit };
    },
  },
  'phone register': {
    summary: "Register an own phone for a client (Profile A); prints its worker token once.",
    flags: [CLIENT, requiredFlag('name', 'NAME', "the phone's name")],
    run: async (flags, { gateway }) => {
      const command = { clientId: flags.integer('client'), name: flags.text('name') };
      flags.rejectUnknown();
      const phone = await gateway.send<ClientPhoneRegistered>(Patterns.gateway.phoneRegister, command);
      return { phone_id: phone.phoneId, worker_token: phone.workerToken };
    },
  },
  'phone disable': {
    summary: 'Take an own phone out of routing; its waiting tasks move to other phones.',
    flags: [OWN_PHONE],
    run: (flags, services) => setActive(flags, services, 'own', false),
  },
  'phone enable': {
    summary: 'Put a disabled own phone back into routing.',
    flags: [OWN_PHONE],
    run: (flags, services) => setActive(flags, services, 'own', true),
  },
  'phone set': {
    summary: "Set an own phone's number and SIM limits (the limits count SMS parts, its days and months are its client's); prints the phone.",
    flags: [OWN_PHONE, ...LIMIT_FLAGS],
    run: (flags, services) => setLimits(flags, services, 'own'),
  },
  'phone resume': {
    summary: "Lift an own phone's pause (the carrier refused its sends for volume) now; prints the phone.",
    flags: [OWN_PHONE],
    run: (flags, services) => resume(flags, services, 'own'),
  },
  'gateway create': {
    summary: 'Register a pooled gateway (Profile B) at a URL; prints its phone_id.',
    flags: [
      requiredFlag('name', 'NAME', "the gateway's name"),
      requiredFlag('url', 'URL', 'its http or https address'),
      optionalFlag('client', 'ID', "a client it is kept for (a VIP gateway); otherwise it is in the pool"),
    ],
    run: async (flags, { dispatch, gateway }) => {
      const command = { name: flags.text('name'), url: flags.text('url'), clientId: flags.optionalInteger('client') };
      flags.rejectUnknown();
      if (command.clientId !== undefined) await requireClient(gateway, command.clientId);
      const gatewayPhone = await dispatch.send<PhoneView>(Patterns.dispatch.gatewayCreate, command);
      return { phone_id: gatewayPhone.id };
    },
  },
  'gateway disable': {
    summary: 'Take a gateway out of routing; its waiting tasks move to other gateways.',
    flags: [GATEWAY],
    run: (flags, services) => setActive(flags, services, 'gateway', false),
  },
  'gateway enable': {
    summary: 'Put a disabled gateway back into routing.',
    flags: [GATEWAY],
    run: (flags, services) => setActive(flags, services, 'gateway', true),
  },
  'gateway set': {
    summary: "Set a gateway's number and SIM limits, as phone set (its days and months are SMSQ_TIMEZONE's); prints the gateway.",
    flags: [GATEWAY, ...LIMIT_FLAGS],
    run: (flags, services) => setLimits(flags, services, 'gateway'),
  },
  'gateway resume': {
    summary: "Lift a gateway's pause now; prints the gateway.",
    flags: [GATEWAY],
    run: (flags, services) => resume(flags, services, 'gateway'),
  },
  'sending-rules show': {
    summary: "Print a client's routing mode and send windows, in its time zone.",
    flags: [CLIENT],
    run: async (flags, { dispatch, gateway }) => {
      const clientId = flags.integer('client');
      flags.rejectUnknown();
      const query: SendingRulesGetQuery = { clientId, timeZone: await clientTimeZone(gateway, clientId) };
      return sendingRulesFields(clientId, await dispatch.send<SendingRulesView>(Patterns.dispatch.sendingRulesGet, query));
    },
  },
  'sending-rules set': {
    summary: "Change a client's routing mode, sticky days or send windows (one or more); prints the rules.",
    flags: [
      CLIENT,
      optionalFlag('mode', ROUTING_MODES.join('|'), 'how tasks are spread over its phones'),
      optionalFlag('sticky-days', 'N', `how long a recipient stays on its phone in sticky mode, 1 to ${MAX_STICKY_DAYS} days`),
      optionalFlag('windows', 'WINDOWS|none', "the hours normal tasks go out in, in its time zone, such as 'mon-fri 08:00-21:00, sat 10:00-14:00'; none removes them"),
    ],
    run: async (flags, { dispatch, gateway }) => {
      const clientId = flags.integer('client');
      const mode = flags.optionalText('mode');
      const stickyDays = flags.optionalText('sticky-days');
      const windows = flags.optionalText('windows');
      flags.rejectUnknown();
      if (mode === undefined && stickyDays === undefined && windows === undefined) throw new InvalidRequestError('give --mode, --sticky-days, --windows or more than one');
      const changes = {
        ...(mode === undefined ? {} : { routingMode: routingModeOf(mode) }),
        ...(stickyDays === undefined ? {} : { stickyDays: stickyDaysOf(stickyDays) }),
        ...(windows === undefined ? {} : { sendWindows: parseSendWindowsText(windows) }),
      };
      const command: SendingRulesUpdateCommand = { clientId, timeZone: await clientTimeZone(gateway, clientId), ...changes };
      return sendingRulesFields(clientId, await dispatch.send<SendingRulesView>(Patterns.dispatch.sendingRulesUpdate, command));
    },
  },
  'worker-token create': {
    summary: "Create a worker token: a phone's (Profile A, --phone required) or a pooled worker's (Profile B); prints it once.",
    flags: [optionalFlag('phone', 'ID', 'the phone or gateway it belongs to')],
    run: async (flags, { gateway }) => {
      const command = { phoneId: flags.optionalInteger('phone') };
      flags.rejectUnknown();
      const token = await gateway.send<WorkerTokenCreated>(Patterns.gateway.workerTokenCreate, command);
      return { token_id: token.tokenId, worker_token: token.workerToken, prefix: token.prefix };
    },
  },
  'worker-token revoke': {
    summary: 'Revoke a worker token, at once.',
    flags: [requiredFlag('token', 'ID', 'the token (its token_id)')],
    run: async (flags, { gateway }) => {
      const command = { tokenId: flags.integer('token') };
      flags.rejectUnknown();
      return gateway.send(Patterns.gateway.workerTokenRevoke, command);
    },
  },
  'admin create': {
    summary: 'Create a dashboard administrator; prints its user_id.',
    flags: [requiredFlag('email', 'EMAIL', 'what they sign in with'), requiredFlag('password', 'PASSWORD', 'their password')],
    run: async (flags, { dashboard }) => {
      const command = { email: flags.text('email'), password: flags.text('password') };
      flags.rejectUnknown();
      const created = await dashboard.send<AdminCreated>(Patterns.dashboard.adminCreate, command);
      return { user_id: created.userId };
    },
  },
  'smpp-credential create': {
    summary: 'Create SMPP credentials for a client; prints the system_id and the password once.',
    flags: [
      CLIENT,
      optionalFlag('system-id', 'S', 'the system_id SMPP clients bind with; smsq picks one when left out'),
      optionalFlag('source', 'A,B,…', 'the sender numbers or names a bind may submit from, comma-separated; any when left out'),
    ],
    run: async (flags, { gateway }) => {
      const sources = flags.optionalText('source');
      const command: SmppCredentialCreateCommand = {
        clientId: flags.integer('client'),
        ...optional('systemId', flags.optionalText('system-id')),
        ...optional('sourceAddresses', sources === undefined ? undefined : sourceAddressesOf(sources)),
      };
      flags.rejectUnknown();
      const created = await gateway.send<SmppCredentialCreated>(Patterns.gateway.smppCredentialCreate, command);
      return { ...smppCredentialFields(created), password: created.password };
    },
  },
  'smpp-credential list': {
    summary: "Print a client's SMPP credentials, revoked ones included, never a password.",
    flags: [CLIENT],
    run: async (flags, { gateway }) => {
      const query: SmppCredentialListQuery = { clientId: flags.integer('client') };
      flags.rejectUnknown();
      const credentials = await gateway.send<SmppCredentialView[]>(Patterns.gateway.smppCredentialList, query);
      return { smpp_credentials: credentials.map(smppCredentialFields) };
    },
  },
  'smpp-credential revoke': {
    summary: 'Revoke SMPP credentials: their binds are closed and they bind no more; prints them.',
    flags: [CLIENT, requiredFlag('id', 'ID', 'the credential (its smpp_credential_id)')],
    run: async (flags, { gateway }) => {
      const command: SmppCredentialRevokeCommand = { clientId: flags.integer('client'), id: flags.integer('id') };
      flags.rejectUnknown();
      return smppCredentialFields(await gateway.send<SmppCredentialView>(Patterns.gateway.smppCredentialRevoke, command));
    },
  },
  'webhook create': {
    summary: 'Register a webhook endpoint for a client; prints its secret once.',
    flags: [
      CLIENT,
      requiredFlag('url', 'URL', 'where the events are POSTed'),
      requiredFlag('events', 'E,F,…', `the events it gets, comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`),
    ],
    run: async (flags, { dispatch, gateway }) => {
      const command = { clientId: flags.integer('client'), url: flags.text('url'), events: flags.text('events').split(',').map((event) => event.trim()) };
      flags.rejectUnknown();
      await requireClient(gateway, command.clientId);
      const created = await dispatch.send<WebhookCreated>(Patterns.dispatch.webhookCreate, command);
      return { webhook_id: created.endpoint.id, secret: created.secret };
    },
  },
  'webhook list': {
    summary: "Print a client's webhook endpoints.",
    flags: [CLIENT],
    run: async (flags, { dispatch }) => {
      const query = { clientId: flags.integer('client') };
      flags.rejectUnknown();
      const endpoints = await dispatch.send<WebhookEndpointView[]>(Patterns.dispatch.webhookList, query);
      return { webhooks: endpoints.map((endpoint) => ({ webhook_id: endpoint.id, url: endpoint.url, events: endpoint.events, active: endpoint.active, disabled_reason: endpoint.disabledReason })) };
    },
  },
  'webhook enable': {
    summary: 'Send to an endpoint smsq had stopped sending to again.',
    flags: [CLIENT, requiredFlag('webhook', 'ID', 'the endpoint (its webhook_id)')],
    run: async (flags, { dispatch }) => {
      const command = { clientId: flags.integer('client'), id: flags.integer('webhook') };
      flags.rejectUnknown();
      const endpoint = await dispatch.send<WebhookEndpointView>(Patterns.dispatch.webhookEnable, command);
      return { webhook_id: endpoint.id, active: endpoint.active };
    },
  },
  'webhook delete': {
    summary: 'Remove a webhook endpoint.',
    flags: [CLIENT, requiredFlag('webhook', 'ID', 'the endpoint (its webhook_id)')],
    run: async (flags, { dispatch }) => {
      const command = { clientId: flags.integer('client'), id: flags.integer('webhook') };
      flags.rejectUnknown();
      return dispatch.send(Patterns.dispatch.webhookDelete, command);
    },
  },
};

/** Billing and dispatch accept any client id (billing opens accounts lazily); an admin's typo must not. */
async function requireClient(gateway: ServiceClient, clientId: number): Promise<void> {
  await gateway.send<ClientDetails>(Patterns.gateway.clientShow, { clientId });
}

async function setClientDisabled(flags: Flags, { gateway }: Services, disabled: boolean): Promise<object> {
  const command = { clientId: flags.integer('client'), disabled };
  flags.rejectUnknown();
  const client = await gateway.send<ClientView>(Patterns.gateway.clientSetDisabled, command);
  return { client_id: client.id, disabled: client.disabledAt !== null, disabled_at: client.disabledAt };
}

async function setActive(flags: Flags, { dispatch }: Services, kind: PhoneKind, active: boolean): Promise<object> {
  const command = { phoneId: flags.integer('phone'), kind, active };
  flags.rejectUnknown();
  return dispatch.send(Patterns.dispatch.phoneSetActive, command);
}

/**
 * A phone's or gateway's number and SIM limits. `--number` is its own number (read by the gateway
 * as create-task reads a recipient; `none` forgets it): an SMPP submit from that number is sent
 * through it. The limits count SMS parts: `--daily N` (parts a day, 0 sends nothing),
 * `--per-minute N`, `--monthly-recipients N` (distinct numbers a calendar month, 0 none new),
 * `--jitter N` (the longest random extra pause between sends, seconds), `none` removing one;
 * `--sims 1|2`. A flag left out leaves it. An own phone's days and months are its client's; a
 * gateway's (the admin's) are SMSQ_TIMEZONE's.
 */
async function setLimits(flags: Flags, { dispatch, gateway }: Services, kind: PhoneKind): Promise<object> {
  const phoneId = flags.integer('phone');
  const number = flags.optionalText('number');
  const limits = {
    dailyLimit: flags.optionalSimLimit('daily', MIN_SIM_LIMIT.dailyLimit),
    perMinute: flags.optionalSimLimit('per-minute', MIN_SIM_LIMIT.perMinute),
    monthlyRecipients: flags.optionalSimLimit('monthly-recipients', MIN_SIM_LIMIT.monthlyRecipients),
    jitter: flags.optionalSimLimit('jitter', 0, MAX_JITTER_S),
    sims: simsOf(flags.optionalText('sims')),
  };
  flags.rejectUnknown();
  const setsLimits = Object.values(limits).some((value) => value !== undefined);
  if (number === undefined && !setsLimits) {
    throw new InvalidRequestError('give --number (a number, or none to forget it), --daily, --per-minute, --monthly-recipients, --jitter (a number, or none for no limit) or --sims, one or more');
  }
  let phone: PhoneView | undefined;
  if (number !== undefined) {
    const command: PhoneNumberSetCommand = { phoneId, kind, number: number === 'none' ? null : number };
    phone = await gateway.send<PhoneView>(Patterns.gateway.phoneNumberSet, command);
  }
  if (setsLimits) {
    const command: PhoneLimitsCommand = {
      phoneId,
      kind,
      ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)),
      ...(kind === 'own' ? await ownerTimeZone(dispatch, gateway, phoneId) : {}),
    };
    phone = await dispatch.send<PhoneView>(Patterns.dispatch.phoneSetLimits, command);
  }
  return phoneFields(phone!);
}

/** `--source A,B,…`: the senders a credential is limited to; the gateway checks each. */
function sourceAddressesOf(value: string): string[] {
  const addresses = value.split(',').map((address) => address.trim()).filter((address) => address !== '');
  if (addresses.length === 0) throw new InvalidRequestError('--source must list one or more sender numbers or names, separated by commas');
  return addresses;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function smppCredentialFields(credential: SmppCredentialView) {
  return {
    smpp_credential_id: credential.id,
    client_id: credential.clientId,
    system_id: credential.systemId,
    source_addresses: credential.sourceAddresses,
    created_at: credential.createdAt,
    last_bound_at: credential.lastBoundAt,
    revoked_at: credential.revokedAt,
  };
}

function simsOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d$/.test(value) || Number(value) < 1 || Number(value) > MAX_SIMS) throw new InvalidRequestError(`--sims must be 1 or ${MAX_SIMS}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Lifts a pause (the carrier refused the phone's sends for volume) at once; prints the phone. */
async function resume(flags: Flags, { dispatch }: Services, kind: PhoneKind): Promise<object> {
  const command: PhoneResumeCommand = { phoneId: flags.integer('phone'), kind };
  flags.rejectUnknown();
  return phoneFields(await dispatch.send<PhoneView>(Patterns.dispatch.phoneResume, command));
}

/** The client's time zone now, which its send windows are read in; an unknown client is not found. */
async function clientTimeZone(gateway: ServiceClient, clientId: number): Promise<string> {
  return (await gateway.send<ClientView>(Patterns.gateway.clientGet, { clientId })).timezone;
}

function routingModeOf(value: string): RoutingMode {
  if (!(ROUTING_MODES as readonly string[]).includes(value)) throw new InvalidRequestError(`--mode must be one of ${ROUTING_MODES.join(', ')}; got ${JSON.stringify(value)}`);
  return value as RoutingMode;
}

function stickyDaysOf(value: string): number {
  const days = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(days >= 1 && days <= MAX_STICKY_DAYS)) throw new InvalidRequestError(`--sticky-days must be a whole number of days from 1 to ${MAX_STICKY_DAYS}; got ${JSON.stringify(value)}`);
  return days;
}

/** The rules in the public API's field names, with the windows also as the text `--windows` takes. */
function sendingRulesFields(clientId: number, rules: SendingRulesView) {
  return { client_id: clientId, ...sendingRulesBody(rules), windows: formatSendWindowsText(rules.sendWindows) };
}

/** The owning client's zone, when the phone is an own phone; otherwise nothing (dispatch then answers not found for the kind). */
async function ownerTimeZone(dispatch: ServiceClient, gateway: ServiceClient, phoneId: number): Promise<{ timeZone?: string }> {
  const phone = await dispatch.send<PhoneView>(Patterns.dispatch.phoneGet, { phoneId });
  if (phone.kind !== 'own' || phone.clientId === null) return {};
  const client = await gateway.send<ClientView>(Patterns.gateway.clientGet, { clientId: phone.clientId });
  return { timeZone: client.timezone };
}

function phoneFields(phone: PhoneView) {
  return {
    phone_id: phone.id,
    kind: phone.kind,
    client_id: phone.clientId,
    name: phone.name,
    number: phone.number,
    url: phone.url,
    active: phone.active,
    state: phone.state,
    last_contact_at: phone.lastContactAt,
    last_seen_at: phone.lastSeenAt,
    daily_limit: phone.dailyLimit,
    per_minute: phone.perMinute,
    monthly_recipients: phone.monthlyRecipients,
    jitter: phone.jitter,
    sims: phone.sims,
    paused_until: phone.pausedUntil,
    pause_reason: phone.pauseReason,
  };
}

function accountFields(account: AccountView) {
  return {
    plan: account.plan,
    daily_allowance: account.dailyAllowance,
    phone_limit: account.phoneLimit,
    daily_remaining: account.dailyRemaining,
    bonus_remaining: account.bonusRemaining,
    credits_remaining: account.creditsRemaining,
    period_ends_at: account.periodEndsAt,
  };
}

export function findCommand(noun: string, verb: string): AdminCommand {
  const command = COMMANDS[`${noun} ${verb}`];
  if (!command) throw new NotFoundError(`command "${noun} ${verb}" (known: ${Object.keys(COMMANDS).join(', ')})`);
  return command;
}
