import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The root package.json's `name`: the package.json that holds smsq's version. */
const SMSQ_PACKAGE_NAME = 'smsq';

/**
 * smsq's version, the `version` of the repository's root package.json (the one place a release
 * sets it, beside CHANGELOG.md), found from `folder` upwards: this module's folder by default,
 * which is libs/platform/src or dist, a service's one-file build in apps/<app>/dist, or the
 * one-process build's chunks in apps/one-process/dist, all inside the repository or the image.
 * Read when the process starts, not bundled into the build: Nx's cached build of a service does
 * not depend on the root package.json, so a bundled copy would keep an older version after a bump.
 */
export function readSmsqVersion(folder: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let current = folder; ; current = dirname(current)) {
    const found = packageVersionIn(current);
    if (found !== undefined) return found;
    if (dirname(current) === current) throw new Error(`smsq's package.json (name "${SMSQ_PACKAGE_NAME}", with a version) is not in ${folder} or any folder above it`);
  }
}

/** The version in `folder`'s package.json when that is smsq's; undefined when there is none or it is another package's. */
function packageVersionIn(folder: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(folder, 'package.json'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
  return manifest.name === SMSQ_PACKAGE_NAME && typeof manifest.version === 'string' ? manifest.version : undefined;
}

/** This smsq's version (`0.1.0`): shown by every service's /healthz, the dashboard's footer and `npm start`. */
export const SMSQ_VERSION: string = readSmsqVersion();
