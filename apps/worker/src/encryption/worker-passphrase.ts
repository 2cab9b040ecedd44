import { readFileSync } from 'node:fs';
import { reasonOf } from '../http/http-answers.js';
import { readStoredPassphrase, storedPassphraseFile } from './stored-passphrase.js';

/** The client's passphrase for encrypted messages (docs/guide/encryption.md), and where it came from; only the origin is ever printed. */
export interface WorkerPassphrase {
  text: string;
  /** `WORKER_PASSPHRASE`, `WORKER_PASSPHRASE_FILE` or the stored file's path. */
  origin: string;
}

/** The passphrase found, if any, and what made a given one unusable; `readWorkerConfig` reports the problems with the rest. */
export interface PassphraseLookup {
  found: WorkerPassphrase | undefined;
  problems: string[];
}

export const NO_PASSPHRASE: PassphraseLookup = { found: undefined, problems: [] };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Finds the passphrase, taken exactly as given (docs/guide/encryption.md: no trimming, no normalising,
 * so it is read here rather than through the trimming EnvReader): `WORKER_PASSPHRASE`, or the file
 * `WORKER_PASSPHRASE_FILE` names (its final line break dropped, as editors add one), or else the
 * one `pair --passphrase` stored in the state folder.
 */
export function lookUpPassphrase(env: Record<string, string | undefined>, stateDir?: string): PassphraseLookup {
  const direct = env['WORKER_PASSPHRASE'];
  const path = env['WORKER_PASSPHRASE_FILE']?.trim();
  if (direct && path) return { found: undefined, problems: ['set WORKER_PASSPHRASE or WORKER_PASSPHRASE_FILE, not both'] };
  if (direct) return checkedPassphrase(direct, 'WORKER_PASSPHRASE');
  if (path) return passphraseFromFile(path, 'WORKER_PASSPHRASE_FILE');
  if (stateDir === undefined) return NO_PASSPHRASE;
  try {
    const stored = readStoredPassphrase(stateDir);
    return stored === undefined ? NO_PASSPHRASE : checkedPassphrase(stored, storedPassphraseFile(stateDir));
  } catch (error) {
    return { found: undefined, problems: [reasonOf(error)] };
  }
}

/** The passphrase a file holds: strict UTF-8, its final line break dropped. `origin` names the setting for errors. */
export function passphraseFromFile(path: string, origin: string): PassphraseLookup {
  let text: string;
  try {
    text = strictUtf8.decode(readFileSync(path)).replace(/\r?\n$/, '');
  } catch (error) {
    const why = error instanceof TypeError ? 'it is not UTF-8 text' : ((error as NodeJS.ErrnoException).code ?? reasonOf(error));
    return { found: undefined, problems: [`${origin}: cannot read the passphrase from ${path}: ${why}`] };
  }
  return checkedPassphrase(text, origin, `${path} is empty`);
}

/** A passphrase the key derivation takes: not empty, and text (no lone UTF-16 surrogate). */
export function checkedPassphrase(text: string, origin: string, whenEmpty = 'it is empty'): PassphraseLookup {
  if (text === '') return { found: undefined, problems: [`${origin}: ${whenEmpty}; a passphrase cannot be empty`] };
  if (!text.isWellFormed()) return { found: undefined, problems: [`${origin}: the passphrase holds a lone UTF-16 surrogate, which is not text`] };
  return { found: { text, origin }, problems: [] };
}
