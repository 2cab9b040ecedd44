// A service as one file, `apps/<service>/dist/smsq-<service>.mjs`, built from its compiled modules
// (`dist/main.js`, which keeps the decorator metadata SWC emits) with every library and dependency
// inside. A process started from it reads one file instead of about a thousand modules: a service
// alone answers in about 1.4 s of CPU instead of 2.6 s. Run with the app's folder as the working
// directory. The services run in one process have a build of their own (apps/one-process), whose
// files share one copy of Nest, Prisma and the rest.
import { basename } from 'node:path';
import { defineConfig } from 'rolldown';

/**
 * Read from node_modules at run time: Prisma's runtime and its WebAssembly (loaded on demand), and
 * `pg`, whose CommonJS entry does not survive being inlined (its client sent an object where the
 * start-up message wants a string).
 */
export const OUTSIDE = [/^@prisma\//, /^pg(-[a-z-]+)?(\/|$)/];

const service = basename(process.cwd());

export default defineConfig({
  input: 'dist/main.js',
  platform: 'node',
  external: (id) => OUTSIDE.some((pattern) => pattern.test(id)),
  // Nest's optional packages (websockets, express, fastify's plugins) are `require`d only when used;
  // what is not installed stays a plain import, which is what they are.
  checks: { unresolvedImport: false },
  output: { file: `dist/smsq-${service}.mjs`, format: 'esm', codeSplitting: false, keepNames: true },
});
