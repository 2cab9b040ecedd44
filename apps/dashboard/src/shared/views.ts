import type { DailyTaskCount, InboxMessageView, KeyCreated, KeyView, PhoneDetails, Profile, SendingRulesView, SmppCredentialView, TaskView, WorkerTokenCreated, WorkerTokenView, ClientView } from '@smsq/contracts';
import type { ApiKeyRow, ClientRow, CreatedApiKey, CreatedWorkerToken, GatewayRow, InboxRow, Overview, PhoneHealth, PhoneRow, SendingRules, SilentPhone, SimUsage, SmppCredentialRow, TaskRow, WorkerTokenRow } from '@smsq/dashboard-api';

// The services' views mapped field by field, so nothing they add later leaks to the browser unasked.

export function apiKeyRowOf(key: KeyView): ApiKeyRow {
  return { id: key.id, prefix: key.prefix, name: key.name, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt, revokedAt: key.revokedAt };
}

export function smppCredentialRowOf(credential: SmppCredentialView): SmppCredentialRow {
  return { id: credential.id, systemId: credential.systemId, sourceAddresses: credential.sourceAddresses, createdAt: credential.createdAt, lastBoundAt: credential.lastBoundAt, revokedAt: credential.revokedAt };
}

/** Profile A: the pairing QR code carries where the API is and the key; the worker's `pair` command reads this text. */
export function createdApiKeyOf(key: KeyCreated, profile: Profile, apiBaseUrl: string): CreatedApiKey {
  return {
    id: key.keyId,
    prefix: key.prefix,
    apiKey: key.apiKey,
    pairingPayload: profile === 'A' ? JSON.stringify({ base_url: apiBaseUrl, api_key: key.apiKey }) : null,
  };
}

export function phoneRowOf(phone: PhoneDetails, timeZone: string): PhoneRow {
  return {
    id: phone.id,
    name: phone.name,
    number: phone.number,
    active: phone.active,
    ...livenessOf(phone),
    lastSeenAt: phone.lastSeenAt,
    health: healthOf(phone.health),
    sentToday: phone.sentToday,
    url: phone.url,
    timeZone,
  };
}

/** State, last contact, SIM limits and what they count, the pause and the tasks waiting: what the Phones and Gateways pages show of each. */
function livenessOf(phone: PhoneDetails): Pick<PhoneRow, 'state' | 'lastContactAt' | 'waitingTasks' | keyof SimUsage> {
  return {
    state: phone.state,
    lastContactAt: phone.lastContactAt,
    dailyLimit: phone.dailyLimit,
    perMinute: phone.perMinute,
    monthlyRecipients: phone.monthlyRecipients,
    jitter: phone.jitter,
    sims: phone.sims,
    partsToday: phone.partsToday,
    recipientsThisMonth: phone.recipientsThisMonth,
    pausedUntil: phone.pausedUntil,
    pauseReason: phone.pauseReason,
    waitingTasks: phone.waitingTasks,
  };
}

/** The enabled phones no longer in contact, for the banner of the Overview and Phones pages. */
export function silentPhonesOf(phones: PhoneDetails[]): SilentPhone[] {
  return phones
    .filter((phone) => phone.active && phone.state === 'silent')
    .sort((a, b) => a.id - b.id)
    .map((phone) => ({ id: phone.id, name: phone.name, lastContactAt: phone.lastContactAt, waitingTasks: phone.waitingTasks }));
}

function healthOf(health: PhoneDetails['health'] | undefined): PhoneHealth | null {
  if (!health) return null;
  return { batteryPercent: health.batteryPercent, charging: health.charging, connection: health.connection, reportedAt: health.reportedAt };
}

export function gatewayRowOf(gateway: PhoneDetails, timeZone: string): GatewayRow {
  return {
    id: gateway.id,
    name: gateway.name,
    number: gateway.number,
    url: gateway.url,
    clientId: gateway.clientId,
    active: gateway.active,
    ...livenessOf(gateway),
    lastAssignedAt: gateway.lastAssignedAt,
    lastSeenAt: gateway.lastSeenAt,
    timeZone,
  };
}

export function taskRowOf(task: TaskView, timeZone: string): TaskRow {
  return {
    id: task.id,
    clientId: task.clientId,
    phoneId: task.phoneId,
    firstPhoneId: task.firstPhoneId,
    recipient: task.recipient,
    message: task.message,
    encrypted: task.encrypted,
    status: task.status,
    scheduledAt: task.scheduledAt,
    attempts: task.attempts,
    sentAt: task.sentAt,
    deliveredAt: task.deliveredAt,
    failedAt: task.failedAt,
    error: task.error,
    expiresAt: task.expiresAt,
    createdAt: task.createdAt,
    segments: task.segments,
    priority: task.priority,
    reroutedBecause: task.reroutedBecause,
    timeZone,
  };
}

export function sendingRulesOf(rules: SendingRulesView): SendingRules {
  return {
    routingMode: rules.routingMode,
    stickyDays: rules.stickyDays,
    sendWindows: rules.sendWindows.map((window) => ({ days: [...window.days], from: window.from, to: window.to })),
    timeZone: rules.timeZone,
    windowOpen: rules.windowOpen,
    windowOpensAt: rules.windowOpensAt,
  };
}

export function inboxRowOf(message: InboxMessageView, timeZone: string): InboxRow {
  return { id: message.id, from: message.from, message: message.message, encrypted: message.encrypted, receivedAt: message.receivedAt, phoneId: message.phoneId, timeZone };
}

export function clientRowOf(client: ClientView): ClientRow {
  return { id: client.id, name: client.name, timezone: client.timezone, createdAt: client.createdAt, disabledAt: client.disabledAt };
}

export function workerTokenRowOf(token: WorkerTokenView): WorkerTokenRow {
  return { id: token.id, phoneId: token.phoneId, prefix: token.prefix, createdAt: token.createdAt, lastUsedAt: token.lastUsedAt, revokedAt: token.revokedAt };
}

export function createdWorkerTokenOf(token: WorkerTokenCreated): CreatedWorkerToken {
  return { id: token.tokenId, prefix: token.prefix, workerToken: token.workerToken };
}

export function daysOf(counts: DailyTaskCount[]): Overview['days'] {
  return counts.map((count) => ({ day: count.day, sent: count.sent, failed: count.failed, pending: count.pending }));
}
