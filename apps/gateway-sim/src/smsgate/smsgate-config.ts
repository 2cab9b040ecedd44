import type { EnvReader } from '@smsq/platform';
import { SEND_FAILURE_KINDS, type SendFailureKind } from './messages/send-failure-kinds.js';

export const PROCESSING_ORDERS = ['FIFO', 'LIFO'] as const;
export type ProcessingOrder = (typeof PROCESSING_ORDERS)[number];

/** How the simulated SMSGate phone behaves: its Local Server credentials, its pace, its webhooks and its health. */
export class SmsGateConfig {
  /** Basic auth of the Local Server API. */
  username!: string;
  password!: string;
  deviceId!: string;
  /** How long each message waits at the head of the queue before the phone hands it to the radio. */
  pendingMs!: number;
  /** From the radio taking a message (Processed) to its sent report (Sent or Failed). */
  sentMs!: number;
  /** From Sent to the delivery report (Delivered). */
  deliveredMs!: number;
  /** Start with the queue held: every message stays Pending until `POST /sim/hold {"hold": false}`. */
  hold!: boolean;
  /** Start hung: every request of the app's API is done and never answered, until `POST /sim/hang {"hang": false}`. */
  hang!: boolean;
  /** Which pending message goes first among equal priorities (the app's setting; the app itself defaults to LIFO). */
  processingOrder!: ProcessingOrder;
  /** How a send fails at GATEWAY_SIM_FAILURE_RATE (send-faults.ts): the app's generic failure, or its word that nothing was sent. */
  failureKind!: SendFailureKind;
  /** After this many SMS sent, every further send fails with RESULT_ERROR_LIMIT_EXCEEDED (send-limit.ts); null: never. */
  limitExceededAfter!: number | null;
  /** Active SIM cards; a message for a higher `simNumber` fails as on a phone without that SIM. */
  simCount!: number;
  /** The app's "insecure" build: webhooks to any http:// URL, not only https:// and http://127.0.0.1. */
  insecureWebhooks!: boolean;
  /** Signs webhook bodies (X-Signature, X-Timestamp) when set. */
  signingKey?: string;
  webhookRetries!: number;
  webhookRetryMs!: number;
  /** As apps before 1.65.2: an inbox export re-emits sms:received for SMS the app already saw. */
  legacyExport!: boolean;
  batteryLevel!: number;
  batteryCharging!: boolean;
  connected!: boolean;
  /** The phone's UTC offset in minutes; the app writes its dates in the phone's time zone. */
  utcOffsetMinutes!: number;
}

export function readSmsGateConfig(env: EnvReader): SmsGateConfig {
  const signingKey = env.optionalString('GATEWAY_SIM_SMSGATE_SIGNING_KEY');
  const deviceId = env.string('GATEWAY_SIM_SMSGATE_DEVICE_ID', 'GwSimSmsGateDevice001');
  env.require(/^[\w-]{1,36}$/.test(deviceId), `GATEWAY_SIM_SMSGATE_DEVICE_ID must be 1 to 36 letters, digits, _ or -, got ${JSON.stringify(deviceId)}`);
  return Object.assign(new SmsGateConfig(), {
    username: env.string('GATEWAY_SIM_SMSGATE_USER', 'sms'),
    password: env.string('GATEWAY_SIM_SMSGATE_PASSWORD', 'smsgate-sim-password'),
    deviceId,
    pendingMs: env.int('GATEWAY_SIM_SMSGATE_PENDING_MS', 200, { min: 0, max: 3_600_000 }),
    sentMs: env.int('GATEWAY_SIM_SMSGATE_SENT_MS', 200, { min: 0, max: 3_600_000 }),
    deliveredMs: env.int('GATEWAY_SIM_SMSGATE_DELIVERED_MS', 300, { min: 0, max: 3_600_000 }),
    hold: env.bool('GATEWAY_SIM_SMSGATE_HOLD', false),
    hang: env.bool('GATEWAY_SIM_SMSGATE_HANG', false),
    processingOrder: env.oneOf('GATEWAY_SIM_SMSGATE_PROCESSING_ORDER', PROCESSING_ORDERS, 'FIFO'),
    failureKind: env.oneOf('GATEWAY_SIM_SMSGATE_FAILURE', SEND_FAILURE_KINDS, 'generic-failure'),
    limitExceededAfter: env.optionalString('GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER') === undefined ? null : env.int('GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER', 0, { min: 0, max: 1_000_000 }),
    simCount: env.int('GATEWAY_SIM_SMSGATE_SIM_COUNT', 2, { min: 1, max: 3 }),
    insecureWebhooks: env.bool('GATEWAY_SIM_SMSGATE_INSECURE', false),
    ...(signingKey === undefined ? {} : { signingKey }),
    webhookRetries: env.int('GATEWAY_SIM_SMSGATE_WEBHOOK_RETRIES', 3, { min: 0, max: 100 }),
    webhookRetryMs: env.int('GATEWAY_SIM_SMSGATE_WEBHOOK_RETRY_MS', 500, { min: 0, max: 600_000 }),
    legacyExport: env.bool('GATEWAY_SIM_SMSGATE_LEGACY_EXPORT', false),
    batteryLevel: env.int('GATEWAY_SIM_SMSGATE_BATTERY_LEVEL', 90, { min: 0, max: 100 }),
    batteryCharging: env.bool('GATEWAY_SIM_SMSGATE_BATTERY_CHARGING', true),
    connected: env.bool('GATEWAY_SIM_SMSGATE_CONNECTED', true),
    utcOffsetMinutes: readUtcOffset(env, 'GATEWAY_SIM_SMSGATE_UTC_OFFSET'),
  });
}

/** `Z`, `+03:00` or `-05:30`, as minutes east of UTC. */
function readUtcOffset(env: EnvReader, name: string): number {
  const raw = env.optionalString(name);
  if (raw === undefined || raw === 'Z') return 0;
  const match = /^([+-])(\d\d):([0-5]\d)$/.exec(raw);
  const minutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : Number.NaN;
  const usable = Math.abs(minutes) <= 14 * 60;
  env.require(usable, `${name} must be Z or an offset such as +03:00, got ${JSON.stringify(raw)}`);
  return usable ? minutes : 0;
}
