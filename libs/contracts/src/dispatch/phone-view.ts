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
}
