// Taking a task in: the rules every create-task body is read by, and the way a checked create
// reaches dispatch (batched, its outcome settled when no answer comes). The public API and the
// SMPP service both create tasks through it, so neither holds a second copy of the rules.
export * from './rules/create-task-request.js';
export * from './rules/create-tasks-request.js';
export * from './rules/local-datetime.js';
export * from './rules/recipient.js';
export * from './rules/template-message.js';
export * from './creating/abandoned-creates.js';
export * from './creating/abandoned-creates.relay.js';
export * from './creating/create-batcher.js';
export * from './creating/created-task-body.js';
export * from './creating/task-creator.js';
export * from './creating/task-intake-settings.js';
export * from './creating/undecided-outcome.error.js';
export * from './task-intake.providers.js';
