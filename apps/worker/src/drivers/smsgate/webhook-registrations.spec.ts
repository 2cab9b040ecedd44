import { describe, expect, it } from 'vitest';
import { recordingLog } from '../../testing/recording-log.js';
import type { SmsGateApi } from './smsgate-api.js';
import { SMSQ_WEBHOOKS, WebhookRegistrations } from './webhook-registrations.js';

describe(WebhookRegistrations.name, () => {
  function registrations(url: string): { sut: WebhookRegistrations; registered: string[]; lines: string[] } {
    const registered: string[] = [];
    const api = { registerWebhook: async (request: { id?: string }) => void registered.push(request.id ?? '') } as unknown as SmsGateApi;
    const { log, logger } = recordingLog();
    return { sut: new WebhookRegistrations(() => api, url, log), registered, lines: logger.lines };
  }

  it('registers the four events with a phone that can reach the receiver', async () => {
    const { sut, registered } = registrations('http://127.0.0.1:8090/smsgate/events');

    await sut.ensure('http://127.0.0.1:8080', new AbortController().signal);

    expect(registered).toEqual(SMSQ_WEBHOOKS.map((webhook) => webhook.id));
  });

  it('does not point a phone on the network at 127.0.0.1, which is the phone itself, and says why', async () => {
    const { sut, registered, lines } = registrations('http://127.0.0.1:8090/smsgate/events');

    await sut.ensure('http://192.168.1.20:8080', new AbortController().signal);

    expect(registered).toEqual([]);
    expect(lines.join('\n')).toMatch(/webhooks not registered: their address is this machine.*GET \/inbox/);
  });
});
