import { ConfigError, EnvReader } from './env-reader.js';

type Env = Record<string, string | undefined>;

export function loadConfig<T>(read: (env: EnvReader) => T, env: Env = process.env): T {
  const reader = new EnvReader(env);
  const config = read(reader);
  reader.done();
  return config;
}

/**
 * Reads a service's configuration once at start. A bad value stops the process with a message
 * that names the variable, before anything connects anywhere.
 */
export function loadConfigOrExit<T>(read: (env: EnvReader) => T, env: Env = process.env): T {
  try {
    return loadConfig(read, env);
  } catch (error: unknown) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}
