export * from './commands.js';
export * from './flags.js';
export * from './help.js';
export * from './run-command.js';
export * from './send-windows-text.js';
