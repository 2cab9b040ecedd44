import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

const ITERATIONS = 4096;

/**
 * The SCRAM-SHA-256 verifier Postgres stores for a password (RFC 5802/7677, as `pg_authid` holds
 * it). Setting a role's password as its verifier keeps the password itself out of the server's
 * statement log.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): string {
  const { storedKey, serverKey } = scramKeys(password, salt, iterations);
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

export function scramKeys(password: string, salt: Buffer, iterations: number): { storedKey: Buffer; serverKey: Buffer } {
  // Postgres prepares the password with SASLprep; derived passwords are ASCII, which it leaves as is.
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  return { storedKey: createHash('sha256').update(clientKey).digest(), serverKey: createHmac('sha256', salted).update('Server Key').digest() };
}
