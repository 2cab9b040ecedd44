/** `own`: a client's own Android phone (Profile A). `gateway`: a pooled gateway (Profile B). */
export type PhoneKind = 'own' | 'gateway';

/** The last health a phone or gateway reported; a field it did not report is null. */
export interface PhoneHealth {
  batteryPercent: number | null;
  charging: boolean | null;
  connection: string | null;
  /** ISO 8601 instant of the report. */
  reportedAt: string;
}

/**
 * `online` while its last contact (registration or pairing, a poll, a report, a health report) is
 * within SMSQ_PHONE_SILENT_S; `silent` after that; `disabled` while disabled, whatever its contact.
 */
export const PHONE_STATES = ['online', 'silent', 'disabled'] as const;
export type PhoneState = (typeof PHONE_STATES)[number];

/** The most a SIM limit (`dailyLimit`, `perMinute`) may be. */
export const MAX_SIM_LIMIT = 100_000;
/** The least each SIM limit may be: a daily limit of 0 sends nothing; a pace is at least one SMS a minute. */
export const MIN_SIM_LIMIT = { dailyLimit: 0, perMinute: 1 } as const;

export interface PhoneView {
  id: number;
  kind: PhoneKind;
  /** Owner (own phone) or VIP client (gateway); null for a gateway of the shared pool. */
  clientId: number | null;
  name: string;
  url: string | null;
  deviceId: string | null;
  active: boolean;
  createdAt: string;
  /** ISO 8601 instant of its last poll for tasks (recorded to within ten seconds); null if it never polled. */
  lastSeenAt: string | null;
  /** Null until it reports its health. */
  health: PhoneHealth | null;
  state: PhoneState;
  /** ISO 8601 instant of its last contact of any kind (to within ten seconds); its creation at first. */
  lastContactAt: string;
  /** SMS it may send per day in its owner's time zone; null: no limit. */
  dailyLimit: number | null;
  /** SMS it may send per minute, the pace its worker keeps; null: the worker's own. */
  perMinute: number | null;
}
