export * from './client-create.js';
export * from './client-show.js';
export * from './key-create.js';
export * from './key-revoke.js';
export * from './phone-register.js';
export * from './worker-token-create.js';
export * from './worker-token-revoke.js';
