// The worker as one file with no dependencies to install (`node smsq-worker.mjs …`), so it runs
// under Termux's Node.js on a phone as well as on a server. Libraries are read from their sources.
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: 'src/main.ts',
  platform: 'node',
  resolve: { conditionNames: ['@smsq/source', 'node', 'import', 'default'] },
  output: { file: 'dist/smsq-worker.mjs', format: 'esm', banner: '#!/usr/bin/env node', codeSplitting: false },
});
