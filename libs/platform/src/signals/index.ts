// Request signals alone, for programs that must not load the framework (the worker ships as one file).
export * from './request-signal.js';
