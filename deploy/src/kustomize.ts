import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

/** One object of a rendered kustomization, as `kubectl kustomize` prints it. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

const KUBECTL = process.env['KUBECTL'] ?? 'kubectl';

/** Fails, saying what to install, where kubectl is missing: the manifests are never left unchecked. */
export function requireKubectl(): string {
  const probe = spawnSync(KUBECTL, ['version', '--client', '--output=json'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `The deploy/k8s tests render the manifests with \`${KUBECTL} kustomize\`, and ${KUBECTL} ${probe.error ? 'was not found' : `failed: ${probe.stderr.trim()}`}. ` +
        'Install kubectl 1.27 or newer (it carries kustomize): https://kubernetes.io/docs/tasks/tools/ , or Debian/Ubuntu: apt-get install kubectl from pkgs.k8s.io; ' +
        'or set KUBECTL to its path.',
    );
  }
  return (JSON.parse(probe.stdout) as { clientVersion: { gitVersion: string } }).clientVersion.gitVersion;
}

/** Renders a kustomization directory offline and parses every object in it. */
export function render(directory: string): RenderedObject[] {
  const run = spawnSync(KUBECTL, ['kustomize', directory], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`kubectl kustomize ${directory} failed: ${run.stderr.trim()}`);
  return parseAllDocuments(run.stdout).map((document) => {
    if (document.errors.length) throw new Error(`kubectl kustomize ${directory} printed YAML that does not parse: ${document.errors[0]!.message}`);
    return document.toJS() as RenderedObject;
  });
}

export function describe(object: RenderedObject): string {
  return `${object.kind}/${object.metadata.name}`;
}
