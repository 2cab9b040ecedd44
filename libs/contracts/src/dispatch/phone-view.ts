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

/** The most a SIM limit (`dailyLimit`, `perMinute`, `monthlyRecipients`) may be. */
export const MAX_SIM_LIMIT = 100_000;
/**
 * The least each SIM limit may be: a daily limit of 0 sends nothing; a pace is at least one SMS
 * part a minute; a cap of 0 recipients sends to nobody new.
 */
export const MIN_SIM_LIMIT = { dailyLimit: 0, perMinute: 1, monthlyRecipients: 0 } as const;
/** The longest random extra pause (`jitter`, seconds) a phone may take between its sends. */
export const MAX_JITTER_S = 600;
/** SIMs a phone may say it has: sticky keeps a recipient on one of them. */
export const MAX_SIMS = 2;

/** Why a phone is paused: the carrier (or Android) refused its sends for volume. */
export const PAUSE_REASONS = ['carrier_volume'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

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
  /** SMS parts it may send per day in its owner's time zone; null: no limit. */
  dailyLimit: number | null;
  /** SMS parts it may send per minute, the pace its worker keeps; null: the worker's own. */
  perMinute: number | null;
  /** Distinct recipients it may send to per calendar month in its owner's time zone; null: no cap. */
  monthlyRecipients: number | null;
  /** The longest random extra pause its worker takes between sends, seconds; null: none. */
  jitter: number | null;
  /** SIMs it has (1 or 2): sticky keeps each recipient on one. */
  sims: number;
  /** While paused (the carrier refused for volume), until when (ISO 8601); null when not paused. */
  pausedUntil: string | null;
  /** Why it is paused; null when not paused. */
  pauseReason: PauseReason | null;
  /** Its SIM's number (E.164) as its owner recorded it; an SMPP submit whose source_addr names it is sent from this phone. */
  number: string | null;
}
