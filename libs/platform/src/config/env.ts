// The configuration readers alone, for programs that must not load the framework (the worker ships as one file).
export * from './env-reader.js';
export * from './load-config.js';
export * from './urls.js';
