export * from './task-ended.js';
