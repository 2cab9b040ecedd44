// Generates each service's Prisma client offline. `prisma generate` needs no engine, but the CLI
// checks that the schema engine file exists, so any existing file stands in for it (DESIGN.md §1).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const apps = readdirSync(join(root, 'apps')).filter(
  (app) => existsSync(join(root, 'apps', app, 'prisma', 'schema.prisma')) && (only.length === 0 || only.includes(app)),
);
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
for (const app of apps) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'prisma', 'build', 'index.js'), 'generate', '--schema', join('apps', app, 'prisma', 'schema.prisma')], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write(`prisma generate failed for ${app}\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`generated the Prisma client of ${app}\n`);
}
