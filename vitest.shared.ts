import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));

/** Tests read the libraries' sources, never their build output: each package's entry points, exactly. */
const libraryAliases = readdirSync(join(root, 'libs')).flatMap((name) => {
  const exports = JSON.parse(readFileSync(join(root, 'libs', name, 'package.json'), 'utf8')).exports as Record<string, { '@smsq/source': string }>;
  return Object.entries(exports).map(([subpath, entry]) => ({
    find: new RegExp(`^@smsq/${name}${subpath === '.' ? '' : subpath.slice(1)}$`),
    replacement: join(root, 'libs', name, entry['@smsq/source']),
  }));
});

/** Where `npm test` finds a run's counts and adds them up: test-results/<name>.json. */
export function testReporters(name: string): ['default', ['json', { outputFile: string }]] {
  return ['default', ['json', { outputFile: join(root, 'test-results', `${name}.json`) }]];
}

export function projectTestConfig(options: { testTimeout?: number; hookTimeout?: number; include?: string[]; maxWorkers?: number; isolate?: boolean; results?: string } = {}) {
  return defineConfig({
    // Nest's dependency injection needs decorator metadata, which only SWC emits here.
    plugins: [swc.vite({ jsc: { target: 'es2022', transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false } } })],
    resolve: { alias: libraryAliases },
    test: {
      include: options.include ?? ['src/**/*.spec.ts'],
      testTimeout: options.testTimeout ?? 20_000,
      hookTimeout: options.hookTimeout ?? 60_000,
      pool: 'forks',
      // A worker runs file after file in one module graph instead of loading Nest, Prisma and the
      // libraries again for each: that loading was half of the unit step (the files' own time
      // added up to 192 s on two workers, the step took 183 s; 118 s without it on the same
      // machine). Every spec makes what it tests in its own hooks; the suite also passes with its
      // files shuffled, so none depends on what an earlier file left in a module.
      isolate: options.isolate ?? false,
      ...(options.maxWorkers ? { maxWorkers: options.maxWorkers } : {}),
      // Each project run alone (`nx run <project>:test`) also leaves its counts where `npm test` adds them up.
      reporters: testReporters(options.results ?? (relative(root, process.cwd()).replace(/[\\/]/g, '-') || 'root')),
    },
  });
}
