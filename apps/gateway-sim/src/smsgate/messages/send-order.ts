import { SmsGateBadRequest } from '../errors/smsgate-errors.js';
import { GsonFields } from '../phone/gson-fields.js';
import { toBooleanStrict } from '../phone/query-values.js';

const REQUEST_CLASS = 'me.capcom.smsgateway.modules.localserver.domain.messages.PostMessageRequest';

/** A `POST /message` the phone accepted: one text to one or more numbers, and how to send it. */
export interface SendOrder {
  id: string | undefined;
  text: string;
  phoneNumbers: string[];
  simNumber: number | null;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  priority: number;
  validUntil: Date | null;
  scheduleAt: Date | null;
  skipPhoneValidation: boolean;
}

/**
 * Reads `POST /message` as the app does, in the app's order of checks and with its messages: the
 * current shape (`textMessage: {text}`) and the older one (a top-level `message` string), exactly
 * one of them; `ttl` (seconds) or `validUntil`, not both.
 */
export function readSendOrder(body: unknown, query: Record<string, unknown>, deviceId: string, now: Date): SendOrder {
  const fields = new GsonFields(body, REQUEST_CLASS);
  const id = fields.string('id');
  const requestedDevice = fields.string('deviceId');
  const withDeliveryReport = fields.boolean('withDeliveryReport');
  const isEncrypted = fields.boolean('isEncrypted');
  const message = fields.string('message');
  const textMessage = fields.object('textMessage');
  const hasDataMessage = fields.has('dataMessage');
  const phoneNumbers = fields.stringList('phoneNumbers');
  const simNumber = fields.int('simNumber');
  const ttl = fields.int('ttl', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const validUntil = fields.date('validUntil');
  const scheduleAt = fields.date('scheduleAt');
  const priority = fields.int('priority', -128, 255);
  const text = textMessage?.string('text');

  const kinds = [textMessage, hasDataMessage || undefined, message].filter((kind) => kind !== undefined).length;
  if (kinds === 0) throw new SmsGateBadRequest('Must specify exactly one of: textMessage, dataMessage, or message');
  if (kinds > 1) throw new SmsGateBadRequest('Cannot specify multiple message types simultaneously');
  if (message === '') throw new SmsGateBadRequest('Text message is empty');
  if (hasDataMessage) throw new SmsGateBadRequest('gateway-sim sends text messages only; dataMessage is not simulated');
  if (textMessage !== undefined && (text === undefined || text === '')) throw new SmsGateBadRequest('Text message is empty');
  if (phoneNumbers === undefined || phoneNumbers.length === 0) throw new SmsGateBadRequest('Empty phone numbers list');
  if (phoneNumbers.some((number) => number === null)) throw new SmsGateBadRequest('Phone numbers cannot be null');
  if (simNumber !== undefined && simNumber < 1) throw new SmsGateBadRequest('SIM number cannot be less than 1');
  if (scheduleAt !== undefined && scheduleAt.getTime() <= now.getTime()) throw new SmsGateBadRequest('scheduleAt must be in the future');

  if (requestedDevice !== undefined && requestedDevice !== deviceId) throw new SmsGateBadRequest('Invalid device ID');
  const skipPhoneValidation = toBooleanStrict(query['skipPhoneValidation']) ?? false;
  if (ttl !== undefined && validUntil !== undefined) throw new SmsGateBadRequest('fields conflict: ttl and validUntil');
  const expiry = validUntil ?? (ttl === undefined ? undefined : new Date(now.getTime() + ttl * 1000));
  if (expiry !== undefined && expiry.getTime() < now.getTime()) throw new SmsGateBadRequest('message already expired');

  return {
    id,
    text: (message ?? text)!,
    phoneNumbers: phoneNumbers as string[],
    simNumber: simNumber ?? null,
    withDeliveryReport: withDeliveryReport ?? true,
    isEncrypted: isEncrypted ?? false,
    // The app keeps priority in a Kotlin Byte.
    priority: priority === undefined ? 0 : priority > 127 ? priority - 256 : priority,
    validUntil: expiry ?? null,
    scheduleAt: scheduleAt ?? null,
    skipPhoneValidation,
  };
}
