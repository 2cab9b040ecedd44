import { isHttpUrl } from '@smsq/platform/env';

/** What the dashboard's pairing QR code carries (DESIGN.md §2): smsq's public API address and an API key. */
export interface PairingCode {
  baseUrl: string;
  apiKey: string;
}

/**
 * Reads the QR code's text, `{"base_url": "https://sms.example.com", "api_key": "smsq_key_…"}`, as
 * pasted or read by any QR app. Throws an Error whose message tells the user what is wrong.
 */
export function parsePairingCode(text: string): PairingCode {
  let fields: unknown;
  try {
    fields = JSON.parse(text.trim());
  } catch {
    throw new Error('the pairing code is not the text of the dashboard\'s QR code (JSON with base_url and api_key); paste it whole, in single quotes');
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new Error('the pairing code must be a JSON object with base_url and api_key');
  const { base_url: baseUrl, api_key: apiKey } = fields as Record<string, unknown>;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') throw new Error('the pairing code has no api_key');
  if (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl)) throw new Error('the pairing code has no usable base_url (an http or https address of smsq)');
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: apiKey.trim() };
}
