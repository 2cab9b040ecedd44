export * from './messages-list.js';
export * from './messages-store.js';
export * from './messages-thread.js';
