export * from './messages-list.js';
export * from './messages-store.js';
