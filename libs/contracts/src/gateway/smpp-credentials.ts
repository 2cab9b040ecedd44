import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** SMPP 3.4 allows a system_id of at most 15 characters; smsq takes letters, digits, `_`, `-` and `.`. */
export const SMPP_SYSTEM_ID = /^[A-Za-z0-9_.-]{1,15}$/;

/** What a credential may name as the sender (source_addr): a number, `+` and digits, or an alphanumeric sender of at most 11 characters. */
export const SMPP_SOURCE_ADDRESS = /^(\+?\d{1,20}|[A-Za-z0-9 ._-]{1,11})$/;

/** The most source addresses one credential may be limited to. */
export const MAX_SMPP_SOURCE_ADDRESSES = 50;

/**
 * Creates SMPP credentials for a client: the system_id it asked for (or one smsq picks), and a
 * password of 8 characters (SMPP's most) that smsq generates and stores only hashed; answered
 * `SmppCredentialCreated`, the password shown this once. `sourceAddresses`, when given, are the
 * only source_addr values a bind with it may submit with.
 */
export class SmppCredentialCreateCommand {
  @IsEntityId() clientId!: number;
  @IsOptional() @IsString() @Matches(SMPP_SYSTEM_ID, { message: 'system_id must be 1 to 15 letters, digits, "_", "-" or "."' }) systemId?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_SMPP_SOURCE_ADDRESSES) @IsString({ each: true }) @Matches(SMPP_SOURCE_ADDRESS, { each: true, message: 'each source address must be a number or an alphanumeric sender of at most 11 characters' }) sourceAddresses?: string[];
}

/** The client's credentials, revoked ones included, oldest first: answered `SmppCredentialView[]`. */
export class SmppCredentialListQuery {
  @IsEntityId() clientId!: number;
}

/** Revokes one of the client's credentials: its binds are closed at once and it binds no more; another client's is not found. Answered the `SmppCredentialView`. */
export class SmppCredentialRevokeCommand {
  @IsEntityId() clientId!: number;
  @IsEntityId() id!: number;
}

/** The most credentials a client may have that are not revoked. */
export const MAX_SMPP_CREDENTIALS = 20;

/**
 * A bind's system_id and password, checked by the gateway (which stores the password only as a
 * salted scrypt hash): always answered an `SmppBindAnswer`, never an error for a refused bind, so
 * the smpp service can answer the SMPP status that fits (a broker or database failure is still an
 * error, `unavailable` / `internal_error`: answer ESME_RSYSERR, not a refusal). A bind that
 * succeeds sets the credential's `lastBoundAt` (at most once a minute).
 */
export class SmppCredentialAuthenticateQuery {
  @IsString() @Length(1, 15) systemId!: string;
  @IsString() @Length(0, 8) password!: string;
}

/** Which of these credentials may still bind (not revoked, their client not disabled): answered the ids that may. */
export class SmppCredentialActiveQuery {
  @IsInt({ each: true }) @IsArray() @ArrayMaxSize(10_000) ids!: number[];
}

/**
 * Why a bind was refused, checked in this order: `unknown_system_id` (no credential has it:
 * ESME_RINVSYSID), `wrong_password` (ESME_RINVPASWD), then, only for the right password,
 * `revoked` (its credential was revoked) and `client_disabled` (an admin disabled its client),
 * for both of which ESME_RBINDFAIL fits. A revoked credential keeps its system_id: no other
 * credential takes it.
 */
export const SMPP_BIND_REFUSALS = ['unknown_system_id', 'wrong_password', 'revoked', 'client_disabled'] as const;
export type SmppBindRefusal = (typeof SMPP_BIND_REFUSALS)[number];

/** The answer to `SmppCredentialAuthenticateQuery`: who binds, or why not (`detail` is for logs, never for the peer). */
export type SmppBindAnswer = { ok: true; identity: SmppBindIdentity } | { ok: false; refusal: SmppBindRefusal; detail: string };

/** Who a bind is. */
export interface SmppBindIdentity {
  credentialId: number;
  clientId: number;
  systemId: string;
  sourceAddresses: string[];
  /** The client's time zone, which its scheduled times are read in. */
  timezone: string;
  createdAt: string;
}

/** A credential as it may be shown again: never the password. */
export interface SmppCredentialView {
  id: number;
  clientId: number;
  systemId: string;
  /** Empty: any source_addr. */
  sourceAddresses: string[];
  createdAt: string;
  lastBoundAt: string | null;
  revokedAt: string | null;
}

/** The password appears here once and is never stored. */
export interface SmppCredentialCreated extends SmppCredentialView {
  password: string;
}
