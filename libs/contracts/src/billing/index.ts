export * from './account-open.js';
export * from './account-show.js';
export * from './credits-grant.js';
export * from './debit.js';
export * from './plan-set.js';
export * from './refund.js';
