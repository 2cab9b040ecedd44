// Finding the programs the tests drive (a browser, Kannel's boxes) on this machine.
import { accessSync, constants } from 'node:fs';
import { delimiter } from 'node:path';

/** Whether `path` is a file this process may run. */
export function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folders of the PATH, in order. */
export function pathDirs() {
  return (process.env.PATH ?? '').split(delimiter).filter(Boolean);
}
