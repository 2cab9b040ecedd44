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
