/** `own`: a client's own Android phone (Profile A). `gateway`: a pooled gateway (Profile B). */
export type PhoneKind = 'own' | 'gateway';

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
}
