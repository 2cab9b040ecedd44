import { fileURLToPath } from 'node:url';

// Found from this module's folder, which is one level below the app in every form it runs in:
// `src/` (the tests), `dist/` (the compiled modules) and `dist/smsq-dashboard.mjs` (the one-file build).

/** Where the front end's build lands: `apps/dashboard-web/dist`. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../dashboard-web/dist', import.meta.url));
/** The reference worker's single-file build, offered for download when it exists. */
export const DEFAULT_WORKER_FILE = fileURLToPath(new URL('../../worker/dist/smsq-worker.mjs', import.meta.url));
