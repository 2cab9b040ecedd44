import { InvalidRequestError } from '@smsq/contracts';
import { isHttpUrl, jsonObjectOf } from '@smsq/platform';

export interface RegisterPhoneRequest {
  name: string;
  deviceId: string | undefined;
  url: string | undefined;
}

/** `{"name": "<label>", "device_id": "<stable id>", "url": "<where to deliver, optional>"}`. */
export function parseRegisterPhone(body: unknown): RegisterPhoneRequest {
  const { name, device_id: deviceId, url } = jsonObjectOf(body, 'a JSON object with a name');
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100 || !isStorableText(name)) throw new InvalidRequestError('name must be a label of 1 to 100 characters');
  if (deviceId !== undefined && deviceId !== null && (typeof deviceId !== 'string' || deviceId.length === 0 || deviceId.length > 200 || !isStorableText(deviceId))) {
    throw new InvalidRequestError('device_id must be a string of 1 to 200 characters');
  }
  if (url !== undefined && url !== null && (typeof url !== 'string' || !isHttpUrl(url))) throw new InvalidRequestError('url must be an http or https URL');
  return { name: name.trim(), deviceId: typeof deviceId === 'string' ? deviceId : undefined, url: typeof url === 'string' ? url : undefined };
}

/** Postgres cannot store NUL, and a lone surrogate is not text. */
function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}
