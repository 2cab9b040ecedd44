import { Injectable, Logger } from '@nestjs/common';
import {
  ConflictError,
  DomainError,
  InvalidRequestError,
  MAX_SMPP_CREDENTIALS,
  NotFoundError,
  SMPP_SYSTEM_ID,
  type SmppBindAnswer,
  type SmppCredentialCreated,
  type SmppCredentialView,
} from '@smsq/contracts';
import { randomInt } from 'node:crypto';
import { isStoredId } from '../identity/stored-id.js';
import { sourceAddressesOf, type SmppCredentialRequest } from './smpp-credential-request.js';
import { SmppCredentialsRepository } from './smpp-credentials.repository.js';
import { hashSmppPassword, issueSmppPassword, verifySmppPassword } from './smpp-password.js';

/** `last_bound_at` is written at most this often per credential, however many sessions bind. */
const BOUND_TOUCH_INTERVAL_MS = 60_000;
const SUFFIX_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
/** A system_id smsq picks: `c<client id>` and a random suffix, 8 to 15 characters in all. */
const PICKED_MIN_LENGTH = 8;
const PICKED_MIN_SUFFIX = 4;
const PICK_ATTEMPTS = 5;

/** A credential as the public API shows it; never the password. */
export function smppCredentialBody(credential: SmppCredentialView) {
  return {
    id: credential.id,
    system_id: credential.systemId,
    source_addresses: credential.sourceAddresses,
    created_at: credential.createdAt,
    last_bound_at: credential.lastBoundAt,
    revoked_at: credential.revokedAt,
  };
}

/** `c<client id>` and random letters and digits (no look-alikes), 8 to 15 characters. */
export function pickSystemId(clientId: number): string {
  const head = `c${clientId}`;
  const length = Math.max(PICKED_MIN_SUFFIX, PICKED_MIN_LENGTH - head.length);
  let suffix = '';
  for (let index = 0; index < length; index += 1) suffix += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return head + suffix;
}

/**
 * A client's SMPP credentials: a system_id (its own choice or one smsq picks) and a password of 8
 * characters smsq generates, shown once and kept only as a salted scrypt hash. The smpp service
 * checks binds here and asks, every few seconds, which of its bound credentials are still live.
 */
@Injectable()
export class SmppCredentialsService {
  private readonly logger = new Logger(SmppCredentialsService.name);

  constructor(private readonly credentials: SmppCredentialsRepository) {}

  /** A system_id taken by any credential (a revoked one included) is 409; past MAX_SMPP_CREDENTIALS live ones, 400. */
  async create(clientId: number, request: SmppCredentialRequest): Promise<SmppCredentialCreated> {
    if (!isStoredId(clientId)) throw new NotFoundError('client');
    const systemId = request.systemId;
    if (systemId !== undefined && !SMPP_SYSTEM_ID.test(systemId)) throw new InvalidRequestError('system_id must be 1 to 15 letters, digits, "_", "-" or "."');
    const sourceAddresses = sourceAddressesOf(request.sourceAddresses ?? []);
    const password = issueSmppPassword();
    const passwordHash = await hashSmppPassword(password);
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.credentials.insert({ clientId, systemId: systemId ?? pickSystemId(clientId), passwordHash, sourceAddresses }, MAX_SMPP_CREDENTIALS);
      if ('inserted' in result) return { ...result.inserted, password };
      if (result.refused === 'no_client') throw new NotFoundError('client');
      if (result.refused === 'too_many') throw new ConflictError(`a client may have at most ${MAX_SMPP_CREDENTIALS} SMPP credentials that are not revoked; revoke one first`);
      if (systemId !== undefined) throw new ConflictError(`the system_id "${systemId}" is taken; choose another, or leave it out and smsq picks one`);
      if (attempt >= PICK_ATTEMPTS) throw new DomainError('internal_error', 'no free system_id was found; choose one');
    }
  }

  /** Oldest first, revoked ones included; an unknown client is not found. */
  async list(clientId: number): Promise<SmppCredentialView[]> {
    if (!isStoredId(clientId) || !(await this.credentials.clientExists(clientId))) throw new NotFoundError('client');
    return this.credentials.listOfClient(clientId);
  }

  /** Revoking again answers it as it is; another client's credential is not found. */
  async revoke(clientId: number, id: number): Promise<SmppCredentialView> {
    const revoked = isStoredId(clientId) && isStoredId(id) ? await this.credentials.revoke(clientId, id) : undefined;
    if (!revoked) throw new NotFoundError('SMPP credential');
    return revoked;
  }

  /** Who binds with this system_id and password, or why not (SMPP_BIND_REFUSALS' order). */
  async authenticate(systemId: string, password: string): Promise<SmppBindAnswer> {
    const stored = await this.credentials.findBySystemId(systemId);
    if (!stored) return { ok: false, refusal: 'unknown_system_id', detail: 'no SMPP credential has this system_id' };
    if (!(await verifySmppPassword(password, stored.passwordHash))) return { ok: false, refusal: 'wrong_password', detail: 'the password is wrong' };
    if (stored.view.revokedAt !== null) return { ok: false, refusal: 'revoked', detail: `the credential was revoked at ${stored.view.revokedAt}` };
    if (stored.clientDisabled) return { ok: false, refusal: 'client_disabled', detail: 'an admin disabled the client' };
    const { view } = stored;
    await this.credentials.touchBound(view.id, BOUND_TOUCH_INTERVAL_MS).catch((error: Error) => this.logger.warn(`last_bound_at not updated: ${error.message}`));
    return { ok: true, identity: { credentialId: view.id, clientId: view.clientId, systemId: view.systemId, sourceAddresses: view.sourceAddresses, timezone: stored.timezone, createdAt: view.createdAt } };
  }

  /** Those of `ids` that may still bind: not revoked, their client not disabled. */
  active(ids: readonly number[]): Promise<number[]> {
    return this.credentials.activeAmong(ids.filter(isStoredId));
  }
}
