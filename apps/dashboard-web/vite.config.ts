import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The shared API types live in a workspace library; only types are imported, but resolve the path anyway. */
const dashboardApi = new URL('../../libs/dashboard-api/src/index.ts', import.meta.url).pathname;
/** Sealing and opening encrypted messages in the browser (WebCrypto only), bundled from its source as the tests read it. */
const messageCrypto = new URL('../../libs/message-crypto/src/index.ts', import.meta.url).pathname;

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@smsq/dashboard-api': dashboardApi, '@smsq/message-crypto': messageCrypto } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3001', changeOrigin: false } },
  },
});
