import {
  InvalidRequestError,
  MAX_JITTER_S,
  MAX_SIMS,
  MAX_STICKY_DAYS,
  MIN_SIM_LIMIT,
  NotFoundError,
  Patterns,
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
  type WorkerTokenCreated,
} from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { Flags } from './flags.js';
import { formatSendWindowsText, parseSendWindowsText } from './send-windows-text.js';

export interface Services {
  gateway: ServiceClient;
  billing: ServiceClient;
  dispatch: ServiceClient;
  dashboard: ServiceClient;
}

type Command = (flags: Flags, services: Services) => Promise<object>;

/** The commands of DESIGN.md §5; each prints one JSON object in the contract's field names. */
export const COMMANDS: Record<string, Command> = {
  'client create': async (flags, { gateway }) => {
    const command = { name: flags.text('name'), plan: flags.optionalText('plan'), timezone: flags.optionalText('timezone') };
    flags.rejectUnknown();
    const created = await gateway.send<ClientCreated>(Patterns.gateway.clientCreate, command);
    return { client_id: created.clientId };
  },
  'client show': async (flags, { gateway }) => {
    const query = { clientId: flags.integer('client') };
    flags.rejectUnknown();
    const { client, account } = await gateway.send<ClientDetails>(Patterns.gateway.clientShow, query);
    return { client_id: client.id, name: client.name, timezone: client.timezone, created_at: client.createdAt, ...accountFields(account) };
  },
  'client disable': (flags, services) => setClientDisabled(flags, services, true),
  'client enable': (flags, services) => setClientDisabled(flags, services, false),
  'client set-timezone': async (flags, { gateway }) => {
    const command = { clientId: flags.integer('client'), timezone: flags.text('timezone') };
    flags.rejectUnknown();
    const client = await gateway.send<ClientView>(Patterns.gateway.clientSetTimezone, command);
    return { client_id: client.id, timezone: client.timezone };
  },
  'key create': async (flags, { gateway }) => {
    const command = { clientId: flags.integer('client'), name: flags.optionalText('name') };
    flags.rejectUnknown();
    const key = await gateway.send<KeyCreated>(Patterns.gateway.keyCreate, command);
    return { key_id: key.keyId, api_key: key.apiKey, prefix: key.prefix };
  },
  'key revoke': async (flags, { gateway }) => {
    const command = { keyId: flags.integer('key') };
    flags.rejectUnknown();
    return gateway.send(Patterns.gateway.keyRevoke, command);
  },
  'credits grant': async (flags, { billing, gateway }) => {
    const command = { clientId: flags.integer('client'), amount: flags.integer('amount') };
    flags.rejectUnknown();
    await requireClient(gateway, command.clientId);
    const account = await billing.send<AccountView>(Patterns.billing.creditsGrant, command);
    return { credits_remaining: account.creditsRemaining };
  },
  'plan set': async (flags, { billing, gateway }) => {
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
  'phone register': async (flags, { gateway }) => {
    const command = { clientId: flags.integer('client'), name: flags.text('name') };
    flags.rejectUnknown();
    const phone = await gateway.send<ClientPhoneRegistered>(Patterns.gateway.phoneRegister, command);
    return { phone_id: phone.phoneId, worker_token: phone.workerToken };
  },
  'phone disable': (flags, services) => setActive(flags, services, 'own', false),
  'phone set': (flags, services) => setLimits(flags, services, 'own'),
  'phone enable': (flags, services) => setActive(flags, services, 'own', true),
  'phone resume': (flags, services) => resume(flags, services, 'own'),
  'gateway create': async (flags, { dispatch, gateway }) => {
    const command = { name: flags.text('name'), url: flags.text('url'), clientId: flags.optionalInteger('client') };
    flags.rejectUnknown();
    if (command.clientId !== undefined) await requireClient(gateway, command.clientId);
    const gatewayPhone = await dispatch.send<PhoneView>(Patterns.dispatch.gatewayCreate, command);
    return { phone_id: gatewayPhone.id };
  },
  'gateway disable': (flags, services) => setActive(flags, services, 'gateway', false),
  'gateway enable': (flags, services) => setActive(flags, services, 'gateway', true),
  'gateway set': (flags, services) => setLimits(flags, services, 'gateway'),
  'gateway resume': (flags, services) => resume(flags, services, 'gateway'),
  'sending-rules show': async (flags, { dispatch, gateway }) => {
    const clientId = flags.integer('client');
    flags.rejectUnknown();
    const query: SendingRulesGetQuery = { clientId, timeZone: await clientTimeZone(gateway, clientId) };
    return sendingRulesFields(clientId, await dispatch.send<SendingRulesView>(Patterns.dispatch.sendingRulesGet, query));
  },
  'sending-rules set': async (flags, { dispatch, gateway }) => {
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
  'worker-token create': async (flags, { gateway }) => {
    const command = { phoneId: flags.optionalInteger('phone') };
    flags.rejectUnknown();
    const token = await gateway.send<WorkerTokenCreated>(Patterns.gateway.workerTokenCreate, command);
    return { token_id: token.tokenId, worker_token: token.workerToken, prefix: token.prefix };
  },
  'admin create': async (flags, { dashboard }) => {
    const command = { email: flags.text('email'), password: flags.text('password') };
    flags.rejectUnknown();
    const created = await dashboard.send<AdminCreated>(Patterns.dashboard.adminCreate, command);
    return { user_id: created.userId };
  },
  'worker-token revoke': async (flags, { gateway }) => {
    const command = { tokenId: flags.integer('token') };
    flags.rejectUnknown();
    return gateway.send(Patterns.gateway.workerTokenRevoke, command);
  },
  'smpp-credential create': async (flags, { gateway }) => {
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
  'smpp-credential list': async (flags, { gateway }) => {
    const query: SmppCredentialListQuery = { clientId: flags.integer('client') };
    flags.rejectUnknown();
    const credentials = await gateway.send<SmppCredentialView[]>(Patterns.gateway.smppCredentialList, query);
    return { smpp_credentials: credentials.map(smppCredentialFields) };
  },
  'smpp-credential revoke': async (flags, { gateway }) => {
    const command: SmppCredentialRevokeCommand = { clientId: flags.integer('client'), id: flags.integer('id') };
    flags.rejectUnknown();
    return smppCredentialFields(await gateway.send<SmppCredentialView>(Patterns.gateway.smppCredentialRevoke, command));
  },
  'webhook create': async (flags, { dispatch, gateway }) => {
    const command = { clientId: flags.integer('client'), url: flags.text('url'), events: flags.text('events').split(',').map((event) => event.trim()) };
    flags.rejectUnknown();
    await requireClient(gateway, command.clientId);
    const created = await dispatch.send<WebhookCreated>(Patterns.dispatch.webhookCreate, command);
    return { webhook_id: created.endpoint.id, secret: created.secret };
  },
  'webhook list': async (flags, { dispatch }) => {
    const query = { clientId: flags.integer('client') };
    flags.rejectUnknown();
    const endpoints = await dispatch.send<WebhookEndpointView[]>(Patterns.dispatch.webhookList, query);
    return { webhooks: endpoints.map((endpoint) => ({ webhook_id: endpoint.id, url: endpoint.url, events: endpoint.events, active: endpoint.active, disabled_reason: endpoint.disabledReason })) };
  },
  'webhook enable': async (flags, { dispatch }) => {
    const command = { clientId: flags.integer('client'), id: flags.integer('webhook') };
    flags.rejectUnknown();
    const endpoint = await dispatch.send<WebhookEndpointView>(Patterns.dispatch.webhookEnable, command);
    return { webhook_id: endpoint.id, active: endpoint.active };
  },
  'webhook delete': async (flags, { dispatch }) => {
    const command = { clientId: flags.integer('client'), id: flags.integer('webhook') };
    flags.rejectUnknown();
    return dispatch.send(Patterns.dispatch.webhookDelete, command);
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

export function findCommand(noun: string, verb: string): Command {
  const command = COMMANDS[`${noun} ${verb}`];
  if (!command) throw new NotFoundError(`command "${noun} ${verb}" (known: ${Object.keys(COMMANDS).join(', ')})`);
  return command;
}
