import { answerOf, type HttpAnswer, type Stack } from './stack.js';

/** The worker side of the API, as a phone or worker speaks it, through the typed client; bodies may be anything, to see what the gateway makes of them. */
export function workerApi(stack: Stack, token: string) {
  const smsq = stack.client({ workerToken: token });
  return {
    poll: async (wait?: number): Promise<HttpAnswer> => answerOf(await smsq.GET('/smsapi/pending-tasks', { params: { query: wait === undefined ? {} : { wait } } })),
    report: async (id: number, status: string, error?: string): Promise<HttpAnswer> =>
      answerOf(await smsq.POST('/smsapi/task-status', { body: { id, status: status as 'sent', ...(error === undefined ? {} : { error }) } })),
    /** `pending-tasks?limit=N`: up to N tasks, `{"tasks": [...]}`. */
    pollMany: async (limit: number, wait?: number): Promise<HttpAnswer> => answerOf(await smsq.GET('/smsapi/pending-tasks', { params: { query: { limit, ...(wait === undefined ? {} : { wait }) } } })),
    /** `task-statuses`: the body as given, so a test can send what a broken worker would. */
    reportMany: async (body: unknown): Promise<HttpAnswer> => answerOf(await smsq.POST('/smsapi/task-statuses', { body: body as never })),
    inbound: async (body: unknown): Promise<HttpAnswer> => answerOf(await smsq.POST('/smsapi/inbound', { body: body as never })),
    health: async (body: unknown): Promise<HttpAnswer> => answerOf(await smsq.POST('/smsapi/phone-health', { body: body as never })),
  };
}

export async function registerPhone(stack: Stack, apiKey: string, body: Record<string, unknown>): Promise<HttpAnswer> {
  return answerOf(await stack.client({ apiKey }).POST('/smsapi/register-phone', { body: body as never }));
}

/** A Profile A client that paired its phone through the API with its own key, as the phone app does, and that phone's worker side. */
export async function clientWithPairedPhone(stack: Stack, options: { bonusCredits?: number } = {}) {
  const client = await stack.newClient({ phone: false });
  const phone = await registerPhone(stack, client.apiKey, { name: 'pixel', device_id: `paired-${client.clientId}` });
  if (phone.status !== 201) throw new Error(`register-phone answered ${phone.status}: ${JSON.stringify(phone.body)}`);
  if (options.bonusCredits) await stack.adminOk('credits', 'grant', '--client', String(client.clientId), '--amount', String(options.bonusCredits));
  return { ...client, phoneId: phone.body.phone_id as number, workerToken: phone.body.worker_token as string, worker: workerApi(stack, phone.body.worker_token) };
}
