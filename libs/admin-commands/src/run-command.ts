import { findCommand, type Services } from './commands.js';
import { Flags, parseCommandLine } from './flags.js';

/** Runs one admin command line (`<noun> <verb> [--flag value]…`) and answers its JSON object. */
export function runAdminCommand(argv: readonly string[], services: Services): Promise<object> {
  const line = parseCommandLine(argv);
  return findCommand(line.noun, line.verb)(new Flags(line.flags), services);
}
