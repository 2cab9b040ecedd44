/**
 * - `not_sealed`: the text does not start with `$smsq$`, so it is not an encrypted message at all.
 * - `unsupported_version`: it is one, in a format version this code does not read.
 * - `malformed`: it claims to be one but is damaged (a field missing, too short, not base64url…).
 * - `wrong_key`: it was sealed with another key (its key id differs from the key's).
 * - `cannot_decrypt`: the key id matches but the text does not authenticate: a wrong passphrase, or
 *   the message was altered.
 */
export type SealedMessageProblem = 'not_sealed' | 'unsupported_version' | 'malformed' | 'wrong_key' | 'cannot_decrypt';

/** Why a sealed message could not be read or opened; `message` is written for the person who sent it. */
export class SealedMessageError extends Error {
  override readonly name = 'SealedMessageError';

  constructor(
    readonly problem: SealedMessageProblem,
    message: string,
  ) {
    super(message);
  }
}
