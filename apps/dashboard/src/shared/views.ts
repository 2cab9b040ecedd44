import type { DailyTaskCount, InboxMessageView, KeyCreated, KeyView, PhoneDetails, Profile, TaskView, WorkerTokenCreated, WorkerTokenView, ClientView } from '@smsq/contracts';
import type { ApiKeyRow, ClientRow, CreatedApiKey, CreatedWorkerToken, GatewayRow, InboxRow, Overview, PhoneRow, TaskRow, WorkerTokenRow } from '@smsq/dashboard-api';

// The services' views mapped field by field, so nothing they add later leaks to the browser unasked.

export function apiKeyRowOf(key: KeyView): ApiKeyRow {
  return { id: key.id, prefix: key.prefix, createdAt: key.createdAt, lastUsedAt: key.lastUsedAt, revokedAt: key.revokedAt };
}

/** Profile A: the QR code of the gateway app carries where the API is and the key. */
export function createdApiKeyOf(key: KeyCreated, profile: Profile, apiBaseUrl: string): CreatedApiKey {
  return {
    id: key.keyId,
    prefix: key.prefix,
    apiKey: key.apiKey,
    pairingPayload: profile === 'A' ? JSON.stringify({ base_url: apiBaseUrl, api_key: key.apiKey }) : null,
  };
}

export function phoneRowOf(phone: PhoneDetails): PhoneRow {
  return { id: phone.id, name: phone.name, active: phone.active, lastSeenAt: phone.lastSeenAt, sentToday: phone.sentToday, url: phone.url };
}

export function gatewayRowOf(gateway: PhoneDetails): GatewayRow {
  return {
    id: gateway.id,
    name: gateway.name,
    url: gateway.url,
    clientId: gateway.clientId,
    active: gateway.active,
    lastAssignedAt: gateway.lastAssignedAt,
    lastSeenAt: gateway.lastSeenAt,
  };
}

export function taskRowOf(task: TaskView): TaskRow {
  return {
    id: task.id,
    clientId: task.clientId,
    phoneId: task.phoneId,
    recipient: task.recipient,
    message: task.message,
    status: task.status,
    scheduledAt: task.scheduledAt,
    attempts: task.attempts,
    sentAt: task.sentAt,
    failedAt: task.failedAt,
    error: task.error,
    createdAt: task.createdAt,
  };
}

export function inboxRowOf(message: InboxMessageView): InboxRow {
  return { id: message.id, from: message.from, message: message.message, receivedAt: message.receivedAt, phoneId: message.phoneId };
}

export function clientRowOf(client: ClientView): ClientRow {
  return { id: client.id, name: client.name, timezone: client.timezone, createdAt: client.createdAt };
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
