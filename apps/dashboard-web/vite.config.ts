import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The shared API types live in a workspace library; only types are imported, but resolve the path anyway. */
const dashboardApi = new URL('../../libs/dashboard-api/src/index.ts', import.meta.url).pathname;

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@smsq/dashboard-api': dashboardApi } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3001', changeOrigin: false } },
  },
});
