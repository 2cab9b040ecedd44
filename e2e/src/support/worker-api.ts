import type { HttpAnswer, Stack } from './stack.js';

/** The worker side of the API, as a phone or worker speaks it. */
export function workerApi(stack: Stack, token: string) {
  const headers = { 'x-worker-token': token };
  return {
    poll: (wait?: number): Promise<HttpAnswer> => stack.http('GET', `/smsapi/pending-tasks${wait === undefined ? '' : `?wait=${wait}`}`, { headers }),
    report: (id: number, status: string, error?: string): Promise<HttpAnswer> =>
      stack.http('POST', '/smsapi/task-status', { headers, body: error === undefined ? { id, status } : { id, status, error } }),
    inbound: (body: unknown): Promise<HttpAnswer> => stack.http('POST', '/smsapi/inbound', { headers, body }),
    health: (body: unknown): Promise<HttpAnswer> => stack.http('POST', '/smsapi/phone-health', { headers, body }),
  };
}

export function registerPhone(stack: Stack, apiKey: string, body: Record<string, unknown>): Promise<HttpAnswer> {
  return stack.http('POST', '/smsapi/register-phone', { headers: { 'x-api-key': apiKey }, body });
}

/** A Profile A client that paired its phone through the API with its own key, as the phone app does, and that phone's worker side. */
export async function clientWithPairedPhone(stack: Stack, options: { bonusCredits?: number } = {}) {
  const client = await stack.newClient({ phone: false });
  const phone = await registerPhone(stack, client.apiKey, { name: 'pixel', device_id: `paired-${client.clientId}` });
  if (phone.status !== 201) throw new Error(`register-phone answered ${phone.status}: ${JSON.stringify(phone.body)}`);
  if (options.bonusCredits) await stack.adminOk('credits', 'grant', '--client', String(client.clientId), '--amount', String(options.bonusCredits));
  return { ...client, phoneId: phone.body.phone_id as number, worker: workerApi(stack, phone.body.worker_token) };
}
