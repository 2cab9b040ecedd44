import { constantTimeEqual } from '@smsq/platform';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Raw credentials look like `smsq_key_<32 random><6 checksum>` (API keys) and `smsq_wkr_…`
 * (worker tokens): a fixed prefix and a checksum let secret scanners recognise them and let
 * the gateway refuse a mistyped one without a database lookup.
 */
export type SecretKind = 'key' | 'wkr';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
/** What is stored and shown of a credential: its kind and the first characters of its body. */
export const VISIBLE_PREFIX_LENGTH = 13;

function base62(bytes: Buffer, length: number): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (out.length < length) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(body));
  return base62(sum, CHECKSUM_LENGTH);
}

export interface IssuedSecret {
  raw: string;
  hash: string;
  prefix: string;
}

export function issueSecret(kind: SecretKind): IssuedSecret {
  const body = base62(randomBytes(24), BODY_LENGTH);
  const raw = `smsq_${kind}_${body}${checksum(body)}`;
  return { raw, hash: hashSecret(raw), prefix: raw.slice(0, VISIBLE_PREFIX_LENGTH) };
}

export function hashSecret(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** True when the value has the shape and checksum of a credential of this kind. */
export function isWellFormedSecret(raw: string, kind: SecretKind): boolean {
  const head = `smsq_${kind}_`;
  if (raw.length !== head.length + BODY_LENGTH + CHECKSUM_LENGTH || !raw.startsWith(head)) return false;
  const body = raw.slice(head.length, head.length + BODY_LENGTH);
  if (![...body].every((char) => ALPHABET.includes(char))) return false;
  return constantTimeEqual(raw.slice(head.length + BODY_LENGTH), checksum(body));
}
