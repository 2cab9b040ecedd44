import { join } from 'node:path';
import { isString, objectParser, StateFile } from '../state/state-file.js';

/** What `pair --passphrase` keeps for `run`: the client's passphrase, exactly as given. */
interface StoredPassphrase {
  passphrase: string;
  savedAt: string;
}

export function storedPassphraseFile(stateDir: string): string {
  return join(stateDir, 'passphrase.json');
}

/** `<state dir>/passphrase.json`, readable by this user only: it opens the client's encrypted messages. */
function storedPassphraseState(stateDir: string): StateFile<StoredPassphrase> {
  return new StateFile(storedPassphraseFile(stateDir), objectParser<StoredPassphrase>({ passphrase: isString }), 'a stored passphrase', 'pair again with --passphrase, or delete it');
}

/** The stored passphrase, or undefined when none is; throws, naming the file, when it is unreadable. */
export function readStoredPassphrase(stateDir: string): string | undefined {
  return storedPassphraseState(stateDir).read()?.passphrase;
}

export function writeStoredPassphrase(stateDir: string, passphrase: string): string {
  const file = storedPassphraseState(stateDir);
  file.write({ passphrase, savedAt: new Date().toISOString() });
  return file.path;
}
