export * from './eventually.js';
export * from './test-database.js';
export * from './schema-drift.js';
export * from './free-port.js';
