export * from './commands.js';
export * from './flags.js';
export * from './run-command.js';
