import { inject } from 'vitest';
import { Stack } from './stack.js';
import type {} from './shared-stack.global.js';

/**
 * The Profile A stack that files testing the API with default settings share
 * (shared-stack.global.ts), instead of each starting one of their own: a stack's start costs a
 * file a few seconds of both cores. Such a file makes its own clients (`newClient`), each with its
 * own key and phone, and reads only what is theirs; it launches no process and restarts nothing.
 * Files of both workers use it at the same time.
 */
export function sharedStack(): Stack {
  return Stack.attach(inject('sharedStackEnv'));
}
