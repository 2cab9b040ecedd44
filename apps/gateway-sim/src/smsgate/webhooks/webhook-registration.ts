import { SmsGateBadRequest } from '../errors/smsgate-errors.js';
import { GsonFields } from '../phone/gson-fields.js';
import { isWebhookEvent, type WebhookEvent } from './webhook-event.js';

const REQUEST_CLASS = 'me.capcom.smsgateway.modules.webhooks.domain.WebHookDTO';

export interface WebhookRegistration {
  id: string | undefined;
  url: string;
  event: WebhookEvent;
}

/**
 * Reads `POST /webhooks` as the app does: the device must be this one, the URL https:// or
 * http://127.0.0.1 (any http:// in the app's insecure build), the event one it knows.
 */
export function readWebhookRegistration(body: unknown, deviceId: string, insecure: boolean): WebhookRegistration {
  const fields = new GsonFields(body, REQUEST_CLASS);
  const id = fields.string('id');
  const url = fields.string('url');
  const event = fields.string('event');
  const requestedDevice = fields.string('deviceId');
  if (requestedDevice !== undefined && requestedDevice !== deviceId) throw new SmsGateBadRequest('Device ID mismatch');
  if (url === undefined || !isAllowedUrl(url, insecure)) throw new SmsGateBadRequest('url must start with https:// or http://127.0.0.1');
  if (!isWebhookEvent(event)) throw new SmsGateBadRequest('Unsupported event');
  return { id, url, event };
}

function isAllowedUrl(url: string, insecure: boolean): boolean {
  const isHttps = url.length > 7 && url.slice(0, 8).toLowerCase() === 'https://';
  const isHttp = url.length > 6 && url.slice(0, 7).toLowerCase() === 'http://';
  return isHttps || (isHttp && (insecure || hostOf(url) === '127.0.0.1'));
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    // java.net.URL throws here and the app answers 500; a 400 serves a test as well.
    throw new SmsGateBadRequest(`no valid URL: ${url}`);
  }
}
