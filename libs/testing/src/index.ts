export * from './eventually.js';
export * from './test-database.js';
export * from './schema-drift.js';
export * from './free-port.js';
export * from './termux/termux-stand-ins.js';
export * from './fault-proxy/fault-proxy.js';
export * from './mailbox.js';
export * from './timed.js';
