import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderedCluster, matches, type Workload } from './cross-references.js';
import { render, type RenderedObject } from './kustomize.js';
import { isBuiltIn, schemaErrors } from './kubernetes-schemas.js';
import { operatorResourceOf } from './operator-resources.js';

const deployRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(deployRoot, '..');
const SERVICES = ['api-gateway', 'billing', 'dispatch', 'inbox', 'smpp', 'dashboard'] as const;
/** The optional components, commented out in each overlay; a variant of the overlay uncomments `components:` and one of them. */
const OPTIONAL_COMPONENTS = '# components:\n#   - ../../components/reference-worker\n#   - ../../components/smpp-tls\n';
const VARIANTS = {
  'with-worker': 'components:\n  - ../../components/reference-worker\n#   - ../../components/smpp-tls\n',
  'with-smpp-tls': 'components:\n#   - ../../components/reference-worker\n  - ../../components/smpp-tls\n',
};
/** deploy/measured-memory.json: what `node deploy/measure-memory.mjs` saw, which the requests and limits are sized from. */
const measured = JSON.parse(readFileSync(join(deployRoot, 'measured-memory.json'), 'utf8')) as { services: Record<string, { atRestMb: number; peakMb: number }> };

let workspace: string;
const renders = new Map<string, RenderedObject[]>();

/** The rendered objects of one kustomization of the copied tree, rendered once. */
function rendered(variant: string): RenderedObject[] {
  if (!renders.has(variant)) renders.set(variant, render(join(workspace, variant)));
  return renders.get(variant)!;
}

function deploymentOf(objects: RenderedObject[], service: string): Workload {
  const deployment = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === `smsq-${service}`);
  expect(deployment, `Deployment smsq-${service}`).toBeDefined();
  return deployment as Workload;
}

/** The port variable a service's configuration reads, with its default: `port: env.port('BILLING_PORT', 3011)` → ['BILLING_PORT', 3011]. */
function configuredPort(service: string, field: 'port' | 'httpPort' | 'smppPort' | 'tlsPort'): [string, number] {
  const configFile = readFileSync(join(repoRoot, 'apps', service, 'src', 'config', `${service === 'api-gateway' ? 'gateway' : service}-config.ts`), 'utf8');
  const pattern = field === 'port' ? /const port = env\.port\('(\w+)', (\d+)\)|\bport: env\.port\('(\w+)', (\d+)\)|\bhttpPort: env\.port\('(\w+)', (\d+)\)/ : new RegExp(`\\b${field}: env\\.port\\('(\\w+)', (\\d+)\\)`);
  const [, variable, fallback] = pattern.exec(configFile)!.filter(Boolean);
  return [variable!, Number(fallback)];
}

/** The SMPP port's variable and default, as `readSmppPort` (libs/platform) reads it for the SMPP service and the dashboard alike. */
function smppPortSetting(): [string, number] {
  const source = readFileSync(join(repoRoot, 'libs/platform/src/config/common-config.ts'), 'utf8');
  const [, variable, fallback] = /function readSmppPort[\s\S]*?env\.port\('(\w+)', (\d+)\)/.exec(source)!;
  return [variable!, Number(fallback)];
}

/** kustomize folds long base64 values onto several lines; Kubernetes' decoder skips the line breaks, the schema's `byte` format does not. */
function withoutLineBreaksInSecretData(object: RenderedObject): RenderedObject {
  if (object.kind !== 'Secret' || !object['data']) return object;
  return { ...object, data: Object.fromEntries(Object.entries(object['data'] as Record<string, string>).map(([key, value]) => [key, value.replace(/\s+/g, '')])) };
}

function mebibytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`memory ${quantity} is not in Mi or Gi`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

beforeAll(() => {
  // A copy, so the variants with the reference worker are made as a user makes them: by uncommenting the component in the overlay.
  workspace = mkdtempSync(join(tmpdir(), 'smsq-k8s-'));
  cpSync(join(deployRoot, 'k8s'), workspace, { recursive: true });
  for (const overlay of ['bring-your-own', 'operators']) {
    const kustomization = readFileSync(join(workspace, 'overlays', overlay, 'kustomization.yaml'), 'utf8');
    expect(kustomization, `overlays/${overlay} offers the reference worker and SMPP over TLS as the docs say`).toContain(OPTIONAL_COMPONENTS);
    for (const [variant, components] of Object.entries(VARIANTS)) {
      cpSync(join(workspace, 'overlays', overlay), join(workspace, 'overlays', `${overlay}-${variant}`), { recursive: true });
      writeFileSync(join(workspace, 'overlays', `${overlay}-${variant}`, 'kustomization.yaml'), kustomization.replace(OPTIONAL_COMPONENTS, components));
    }
  }
});

afterAll(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

describe.each(['base', 'overlays/bring-your-own', 'overlays/operators', 'overlays/bring-your-own-with-worker', 'overlays/operators-with-worker', 'overlays/bring-your-own-with-smpp-tls', 'overlays/operators-with-smpp-tls'])('deploy/k8s/%s', (variant) => {
  it('renders offline with kustomize', () => {
    expect(rendered(variant).length).toBeGreaterThan(10);
  });

  it("holds only objects valid against Kubernetes' schemas, or operator resources with the fields smsq relies on", () => {
    const problems = rendered(variant).flatMap((object) => {
      const where = `${object.kind}/${object.metadata.name}`;
      if (isBuiltIn(object)) return schemaErrors(withoutLineBreaksInSecretData(object)).map((error) => `${where}: ${error}`);
      const operator = operatorResourceOf(object);
      if (!operator) return [`${where}: ${object.apiVersion} ${object.kind} is neither a built-in kind nor an operator resource this test knows`];
      return operator.problems(object).map((problem) => `${where}: ${problem}`);
    });
    expect(problems).toEqual([]);
  });

  it('refers only to what exists: Secret and ConfigMap keys, probe and Service ports, HPA and PDB targets', () => {
    const cluster = new RenderedCluster(rendered(variant));
    // The base leaves the connections to an overlay, so only its own references are checked.
    const problems = variant === 'base' ? cluster.problems().filter((problem) => !/Secret smsq-dashboard/.test(problem)) : cluster.problems();
    expect(problems).toEqual([]);
  });
});

describe.each(['overlays/bring-your-own', 'overlays/operators'])('the services in deploy/k8s/%s', (variant) => {
  it.each(SERVICES)('%s runs its own one-file build on the port its configuration reads, probed on /healthz and /readyz', (service) => {
    const deployment = deploymentOf(rendered(variant), service);
    const [container] = deployment.spec.template.spec.containers;
    expect(container!.image).toMatch(/^ghcr\.io\/example\/smsq:/);
    expect(container!.command).toEqual(['node', `apps/${service}/dist/smsq-${service}.mjs`]);
    expect(existsSync(join(repoRoot, 'apps', service, 'src', 'main.ts'))).toBe(true);
    // The HTTP port variable and its default, read from the service's own configuration.
    const [variable, fallback] = configuredPort(service, 'port');
    const port = container!.ports!.find((candidate) => candidate.name === 'http')!;
    expect(port.containerPort).toBe(fallback);
    expect(container!.env!.find((entry) => entry.name === variable)?.value).toBe(String(fallback));
    expect(container!.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container!.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    for (const name of ['DATABASE_URL', 'AMQP_URL', 'REDIS_URL']) expect(container!.env!.map((entry) => entry.name)).toContain(name);
  });

  it.each(SERVICES)('%s asks for the memory measured at rest and is limited above the peak measured under load', (service) => {
    const { resources } = deploymentOf(rendered(variant), service).spec.template.spec.containers[0]!;
    const figures = measured.services[service]!;
    expect(mebibytes(resources!.requests!['memory']!)).toBeGreaterThanOrEqual(figures.atRestMb);
    expect(mebibytes(resources!.limits!['memory']!)).toBeGreaterThanOrEqual(Math.ceil(figures.peakMb * 1.25));
    expect(resources!.requests!['cpu']).toBeDefined();
  });

  it('gives the reference worker, when added, the memory measured for it', () => {
    const objects = rendered(`${variant}-with-worker`);
    const { resources } = deploymentOf(objects, 'worker').spec.template.spec.containers[0]!;
    expect(mebibytes(resources!.requests!['memory']!)).toBeGreaterThanOrEqual(measured.services['worker']!.atRestMb);
    expect(mebibytes(resources!.limits!['memory']!)).toBeGreaterThanOrEqual(Math.ceil(measured.services['worker']!.peakMb * 1.25));
  });

  it('has a PodDisruptionBudget for every service, and autoscalers for the gateway and dispatch only', () => {
    const objects = rendered(variant);
    const cluster = new RenderedCluster(objects);
    for (const service of SERVICES) {
      const deployment = deploymentOf(objects, service);
      const budgets = objects.filter((object) => object.kind === 'PodDisruptionBudget' && cluster.selected((object['spec'] as { selector: object }).selector).includes(deployment));
      expect(budgets, `PodDisruptionBudget of ${service}`).toHaveLength(1);
    }
    const scaled = objects.filter((object) => object.kind === 'HorizontalPodAutoscaler').map((object) => (object['spec'] as { scaleTargetRef: { name: string } }).scaleTargetRef.name);
    expect(scaled.sort()).toEqual(['smsq-api-gateway', 'smsq-dispatch']);
    // The autoscalers own the replica counts; a Deployment that names one would reset it on every apply.
    for (const name of scaled) expect((objects.find((object) => object.metadata.name === name)!['spec'] as { replicas?: number }).replicas).toBeUndefined();
  });

  it('lets only the gateway and the dashboard (on HTTP) and smpp (on its SMPP ports) take traffic from outside the namespace, and lets every service reach PostgreSQL, RabbitMQ and Redis', () => {
    const objects = rendered(variant);
    const policies = objects.filter((object) => object.kind === 'NetworkPolicy') as (RenderedObject & { spec: NetworkPolicySpec })[];
    for (const service of SERVICES) {
      const labels = deploymentOf(objects, service).spec.template.metadata.labels;
      const applying = policies.filter((policy) => matches(policy.spec.podSelector, labels));
      expect(applying.some((policy) => policy.spec.policyTypes?.includes('Ingress')), `${service} is isolated for ingress`).toBe(true);
      expect(applying.some((policy) => policy.spec.policyTypes?.includes('Egress')), `${service} is isolated for egress`).toBe(true);
      const ingress = applying.flatMap((policy) => policy.spec.ingress ?? []);
      const fromAnywhere = ingress.filter((rule) => !rule.from || rule.from.some((peer) => peer.ipBlock || (peer.namespaceSelector && Object.keys(peer.namespaceSelector).length === 0)));
      const outsidePorts = { 'api-gateway': ['http'], dashboard: ['http'], smpp: ['smpp', 'smpp-tls'] }[service as string] ?? [];
      expect(fromAnywhere.flatMap((rule) => (rule.ports ?? [{ port: 'every port' }]).map((port) => port.port)).sort(), `${service} takes traffic from outside on`).toEqual(outsidePorts);
      // Anything else that reaches it comes from a named namespace (Prometheus), on its HTTP port.
      for (const rule of ingress.filter((rule) => rule.from)) expect(rule.ports).toEqual([{ port: 'http' }]);
      const egressPorts = applying.flatMap((policy) => policy.spec.egress ?? []).flatMap((rule) => (rule.ports ?? []).map((port) => port.port));
      for (const port of [53, 5432, 5672, 6379]) expect(egressPorts, `${service} may reach port ${port}`).toContain(port);
    }
  });
});

interface NetworkPolicySpec {
  podSelector: { matchLabels?: Record<string, string> };
  policyTypes?: string[];
  ingress?: { from?: { ipBlock?: object; namespaceSelector?: object; podSelector?: object }[]; ports?: { port: number | string }[] }[];
  egress?: { to?: object[]; ports?: { port: number | string }[] }[];
}

interface ServiceSpec {
  type?: string;
  externalTrafficPolicy?: string;
  selector?: Record<string, string>;
  ports: { name?: string; port: number; targetPort?: number | string; protocol?: string }[];
}

function serviceOf(objects: RenderedObject[], name: string): ServiceSpec {
  const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === name);
  expect(service, `Service ${name}`).toBeDefined();
  return service!['spec'] as ServiceSpec;
}

/** smsq-config's value of `name`, as every service reads it through envFrom. */
function configValue(objects: RenderedObject[], name: string): string | undefined {
  const config = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('smsq-config-'))!;
  return (config['data'] as Record<string, string>)[name];
}

describe.each(['overlays/bring-your-own', 'overlays/operators'])('SMPP in deploy/k8s/%s', (variant) => {
  it('takes binds on the SMPP port the smpp service and the dashboard read, inside the cluster and through a TCP load balancer', () => {
    const objects = rendered(variant);
    const [variable, fallback] = smppPortSetting();
    expect(variable).toBe('SMSQ_SMPP_PORT');
    // One value for both: where the service listens and what the dashboard tells clients to bind to.
    for (const configFile of ['apps/smpp/src/config/smpp-config.ts', 'apps/dashboard/src/config/dashboard-config.ts']) {
      expect(readFileSync(join(repoRoot, configFile), 'utf8')).toContain('smppPort: readSmppPort(env)');
    }
    expect(configValue(objects, variable)).toBe(String(fallback));
    for (const service of ['smpp', 'dashboard']) {
      expect(deploymentOf(objects, service).spec.template.spec.containers[0]!.envFrom!.map((source) => source.configMapRef?.name), service).toContainEqual(expect.stringMatching(/^smsq-config-/));
    }
    const [container] = deploymentOf(objects, 'smpp').spec.template.spec.containers;
    expect(container!.ports!.find((port) => port.name === 'smpp')?.containerPort).toBe(fallback);
    const inside = serviceOf(objects, 'smsq-smpp');
    expect(inside.type ?? 'ClusterIP').toBe('ClusterIP');
    expect(inside.ports).toContainEqual({ name: 'smpp', port: fallback, targetPort: 'smpp', protocol: 'TCP' });
    const outside = serviceOf(objects, 'smsq-smpp-public');
    expect(outside.type).toBe('LoadBalancer');
    expect(outside.selector).toEqual(deploymentOf(objects, 'smpp').spec.selector.matchLabels);
    // SMPP only: health, readiness and metrics stay inside.
    expect(outside.ports).toEqual([{ name: 'smpp', port: fallback, targetPort: 'smpp', protocol: 'TCP' }]);
    // No Ingress carries SMPP, and nothing routes HTTP to it.
    expect(objects.filter((object) => object.kind === 'Ingress')).toEqual([]);
  });

  it('serves no TLS port until components/smpp-tls gives it the certificate', () => {
    const [container] = deploymentOf(rendered(variant), 'smpp').spec.template.spec.containers;
    expect(container!.ports!.map((port) => port.name)).not.toContain('smpp-tls');
    expect(container!.env!.map((entry) => entry.name)).not.toContain('SMSQ_SMPP_TLS_CERT');
  });

  it('with components/smpp-tls, serves SMPP over TLS on the port the service reads, with the certificate and key of the Secret smsq-smpp-tls', () => {
    const objects = rendered(`${variant}-with-smpp-tls`);
    const deployment = deploymentOf(objects, 'smpp') as Workload & { spec: { template: { spec: { volumes: { name: string; secret?: { secretName: string } }[] } } } };
    const [container] = deployment.spec.template.spec.containers as (Workload['spec']['template']['spec']['containers'][number] & { volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[] })[];
    const [, tlsPort] = configuredPort('smpp', 'tlsPort');
    expect(container!.ports!.find((port) => port.name === 'smpp-tls')?.containerPort).toBe(tlsPort);
    const env = new Map(container!.env!.map((entry) => [entry.name, entry.value]));
    expect(env.get('SMSQ_SMPP_TLS_PORT')).toBe(String(tlsPort));
    const volume = deployment.spec.template.spec.volumes.find((candidate) => candidate.secret?.secretName === 'smsq-smpp-tls')!;
    const mount = container!.volumeMounts.find((candidate) => candidate.name === volume.name)!;
    expect(mount.readOnly).toBe(true);
    // The keys a Secret of type kubernetes.io/tls holds (kubectl create secret tls, cert-manager).
    expect(env.get('SMSQ_SMPP_TLS_CERT')).toBe(`${mount.mountPath}/tls.crt`);
    expect(env.get('SMSQ_SMPP_TLS_KEY')).toBe(`${mount.mountPath}/tls.key`);
    for (const name of ['smsq-smpp', 'smsq-smpp-public']) expect(serviceOf(objects, name).ports, name).toContainEqual({ name: 'smpp-tls', port: tlsPort, targetPort: 'smpp-tls', protocol: 'TCP' });
    // Still only the smpp pods change: the other services render as without it.
    for (const service of SERVICES.filter((candidate) => candidate !== 'smpp')) expect(deploymentOf(objects, service)).toEqual(deploymentOf(rendered(variant), service));
  });
});

describe('deploy/k8s/overlays/bring-your-own', () => {
  it('takes every connection from the smsq-connections Secret, with URLs of the right kinds', () => {
    const secret = rendered('overlays/bring-your-own').find((object) => object.kind === 'Secret' && object.metadata.name.startsWith('smsq-connections-'))!;
    const data = Object.fromEntries(Object.entries(secret['data'] as Record<string, string>).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    expect(new URL(data['DATABASE_URL']!).protocol).toBe('postgresql:');
    expect(new URL(data['AMQP_URL']!).protocol).toBe('amqp:');
    expect(new URL(data['REDIS_URL']!).protocol).toBe('redis:');
  });
});

describe('deploy/k8s/overlays/operators', () => {
  it("builds DATABASE_URL from CloudNativePG's superuser Secret and the database it bootstraps, AMQP_URL from the RabbitMQ operator's Secret, REDIS_URL from its Service", () => {
    const objects = rendered('overlays/operators');
    const postgres = objects.find((object) => object.kind === 'Cluster')!;
    const rabbitmq = objects.find((object) => object.kind === 'RabbitmqCluster')!;
    const initdb = (postgres['spec'] as { bootstrap: { initdb: { database: string } } }).bootstrap.initdb;
    for (const service of SERVICES) {
      const env = deploymentOf(objects, service).spec.template.spec.containers[0]!.env!;
      const byName = new Map(env.map((entry) => [entry.name, entry]));
      const secretOf = (name: string) => byName.get(name.slice(2, -1))?.valueFrom?.secretKeyRef?.name;
      const database = new URL(byName.get('DATABASE_URL')!.value!.replace(/\$\((\w+)\)/g, 'x'));
      expect(database.pathname).toBe(`/${initdb.database}`);
      for (const reference of byName.get('DATABASE_URL')!.value!.match(/\$\(\w+\)/g)!) expect(secretOf(reference)).toBe(`${postgres.metadata.name}-superuser`);
      for (const reference of byName.get('AMQP_URL')!.value!.match(/\$\(\w+\)/g)!) expect(secretOf(reference)).toBe(`${rabbitmq.metadata.name}-default-user`);
      const redis = new URL(byName.get('REDIS_URL')!.value!);
      expect(new RenderedCluster(objects).services.has(redis.hostname)).toBe(true);
    }
  });

  it('uses quorum queues on the three-node RabbitMQ', () => {
    const objects = rendered('overlays/operators');
    const config = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('smsq-config-'))!;
    expect((config['data'] as Record<string, string>)['SMSQ_QUEUE_TYPE']).toBe('quorum');
  });
});

describe('the checks themselves', () => {
  it('catch a broken manifest: a probe on a port the container does not have, a key the Secret lacks, an autoscaler of nothing, a port that is not a number', () => {
    const objects = structuredClone(rendered('overlays/bring-your-own'));
    const gateway = deploymentOf(objects, 'api-gateway');
    gateway.spec.template.spec.containers[0]!.readinessProbe = { httpGet: { path: '/readyz', port: 'metrics' } };
    gateway.spec.template.spec.containers[0]!.env!.find((entry) => entry.name === 'REDIS_URL')!.valueFrom!.secretKeyRef!.key = 'REDIS_ADDRESS';
    const autoscaler = objects.find((object) => object.kind === 'HorizontalPodAutoscaler')!;
    (autoscaler['spec'] as { scaleTargetRef: { name: string } }).scaleTargetRef.name = 'smsq-gone';
    expect(new RenderedCluster(objects).problems()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/smsq-api-gateway container smsq readiness probe uses port metrics/),
        expect.stringMatching(/env REDIS_URL reads key REDIS_ADDRESS of Secret smsq-connections-\w+, which has no such key/),
        expect.stringMatching(/scales Deployment\/smsq-gone, which does not exist/),
      ]),
    );
    (gateway.spec.template.spec.containers[0]!.ports![0] as { containerPort: unknown }).containerPort = 'http';
    expect(schemaErrors(gateway)).toContain('/spec/template/spec/containers/0/ports/0/containerPort must be integer');
  });

  it('catch a CloudNativePG Cluster without the superuser Secret the services read', () => {
    const objects = structuredClone(rendered('overlays/operators'));
    const postgres = objects.find((object) => object.kind === 'Cluster')!;
    delete (postgres['spec'] as Record<string, unknown>)['enableSuperuserAccess'];
    expect(operatorResourceOf(postgres)!.problems(postgres)).toEqual([expect.stringMatching(/enableSuperuserAccess must be true/)]);
    expect(new RenderedCluster(objects).problems()).toEqual(expect.arrayContaining([expect.stringMatching(/Secret smsq-postgres-superuser, which does not exist/)]));
  });
});
