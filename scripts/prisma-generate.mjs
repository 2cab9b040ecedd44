// Generates each service's Prisma client offline. `prisma generate` needs no engine, but the CLI
// checks that the schema engine file exists, so any existing file stands in for it (DESIGN.md §1).
// A client generated from the same schema by the same Prisma is left as it is (`npm ci` generates
// them all, then `npm test`'s build would generate them again).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv.slice(2);
const apps = readdirSync(join(root, 'apps')).filter(
  (app) => existsSync(join(root, 'apps', app, 'prisma', 'schema.prisma')) && (only.length === 0 || only.includes(app)),
);
const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
const prismaVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'prisma', 'package.json'), 'utf8')).version;
for (const app of apps) {
  const schemaPath = join(root, 'apps', app, 'prisma', 'schema.prisma');
  const schema = readFileSync(schemaPath, 'utf8');
  const output = resolve(dirname(schemaPath), /output\s*=\s*"([^"]+)"/.exec(schema)?.[1] ?? '../node_modules/.prisma/client');
  const stamp = join(output, '.generated-from');
  const source = createHash('sha256').update(`prisma ${prismaVersion}\n${schema}`).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === source) {
    process.stdout.write(`the Prisma client of ${app} is up to date\n`);
    continue;
  }
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'prisma', 'build', 'index.js'), 'generate', '--schema', join('apps', app, 'prisma', 'schema.prisma')], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write(`prisma generate failed for ${app}\n`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, source);
  process.stdout.write(`generated the Prisma client of ${app}\n`);
}
