// The services `npm start` runs in one process (scripts/one-process.mjs), built together: each
// service's part is `apps/<service>/one-process/main.mjs`, and what they share (Nest, Prisma's
// client code, the libraries) is in chunks here in `dist/`, loaded once. Reading these few files
// instead of about a thousand modules takes the four core services from about 3 s of CPU to ready
// to about 2 s. Each part sits one folder below its app, as its `dist/main.js` does, because a
// service finds its migrations (and the dashboard its web build) from its own module's location;
// not in the app's `dist`, which the app's own build owns (and Nx's cache restores as a whole).
import { defineConfig } from 'rolldown';
import { outside } from '../../rolldown.service.mjs';

const SERVICES = ['billing', 'dispatch', 'inbox', 'smpp', 'api-gateway', 'dashboard'];

export default defineConfig({
  input: Object.fromEntries(SERVICES.map((service) => [`${service}/one-process/main`, `../${service}/dist/main.js`])),
  platform: 'node',
  external: outside,
  // Relative to apps/: each part in its app's one-process/, the shared chunks in this project's dist.
  output: { dir: '..', format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: 'one-process/dist/[name]-[hash].mjs', keepNames: true },
});
