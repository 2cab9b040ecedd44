import { findCommand, type Services } from './commands.js';
import { Flags, parseCommandLine } from './flags.js';

/** Runs one admin command line (`<noun> <verb> [--flag value]…`) and answers its JSON object. */
export function runAdminCommand(argv: readonly string[], services: Services): Promise<object> {
  const line = parseCommandLine(argv);
  const command = findCommand(line.noun, line.verb);
  return command.run(new Flags(line.flags, command.flags), services);
}

