import type { TestProject } from 'vitest/node';
import { Stack } from './stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Profile A stack's environment (shared-stack.ts). */
    sharedStackEnv: Record<string, string>;
  }
}

/**
 * The `stacks` project's global set-up (vitest.config.ts): one Profile A stack in one process, with
 * the default settings, started before the first file and stopped after the last.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stack = await Stack.start({ profile: 'A', oneProcess: true });
  project.provide('sharedStackEnv', stack.env);
  return () => stack.stop();
}
