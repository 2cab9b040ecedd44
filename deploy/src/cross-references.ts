import { describe, type RenderedObject } from './kustomize.js';
import { operatorResourceOf } from './operator-resources.js';

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef };
}
interface ContainerPort {
  name?: string;
  containerPort: number;
}
interface Probe {
  httpGet?: { path?: string; port: number | string };
  tcpSocket?: { port: number | string };
}
interface Container {
  name: string;
  image?: string;
  command?: string[];
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
export interface Workload extends RenderedObject {
  spec: { selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: { containers: Container[]; initContainers?: Container[] } } };
}
interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Every object the cluster will hold once this is applied: the rendered ones, and what the operators generate from them. */
export class RenderedCluster {
  readonly secrets = new Map<string, Set<string>>();
  readonly configMaps = new Map<string, Set<string>>();
  readonly services = new Set<string>();
  readonly workloads: Workload[];

  constructor(readonly objects: RenderedObject[]) {
    for (const object of objects) {
      const data = { ...((object['data'] as object) ?? {}), ...((object['stringData'] as object) ?? {}) };
      if (object.kind === 'Secret') this.secrets.set(object.metadata.name, new Set(Object.keys(data)));
      if (object.kind === 'ConfigMap') this.configMaps.set(object.metadata.name, new Set(Object.keys(data)));
      if (object.kind === 'Service') this.services.add(object.metadata.name);
      const operator = operatorResourceOf(object);
      for (const [name, keys] of operator?.generatedSecrets(object) ?? []) this.secrets.set(name, new Set(keys));
      for (const name of operator?.generatedServices(object) ?? []) this.services.add(name);
    }
    this.workloads = objects.filter((object): object is Workload => ['Deployment', 'StatefulSet', 'Job'].includes(object.kind));
  }

  /** Pod templates a label selector picks. */
  selected(selector: LabelSelector): Workload[] {
    return this.workloads.filter((workload) => matches(selector, workload.spec.template.metadata.labels ?? {}));
  }

  /** Every reference that would leave a pod unable to start, or an object pointing at nothing. */
  problems(): string[] {
    const problems: string[] = [];
    for (const workload of this.workloads) {
      const where = describe(workload);
      if (!matches(workload.spec.selector, workload.spec.template.metadata.labels ?? {})) problems.push(`${where}: its selector does not match its own pod template`);
      for (const container of [...workload.spec.template.spec.containers, ...(workload.spec.template.spec.initContainers ?? [])]) {
        problems.push(...this.containerProblems(`${where} container ${container.name}`, container));
      }
    }
    for (const object of this.objects) {
      const where = describe(object);
      const spec = (object['spec'] ?? {}) as Record<string, unknown>;
      if (object.kind === 'HorizontalPodAutoscaler') {
        const target = spec['scaleTargetRef'] as { kind: string; name: string };
        if (!this.objects.some((candidate) => candidate.kind === target.kind && candidate.metadata.name === target.name)) problems.push(`${where} scales ${target.kind}/${target.name}, which does not exist`);
      }
      if (object.kind === 'PodDisruptionBudget' || object.kind === 'NetworkPolicy') {
        const selector = (object.kind === 'PodDisruptionBudget' ? spec['selector'] : spec['podSelector']) as LabelSelector;
        if (this.selected(selector).length === 0) problems.push(`${where} selects no pods`);
        if (object.kind === 'PodDisruptionBudget' && this.selected(selector).length > 1) problems.push(`${where} selects the pods of several workloads: ${this.selected(selector).map(describe).join(', ')}`);
      }
      if (object.kind === 'Service' && spec['selector']) {
        const chosen = this.selected({ matchLabels: spec['selector'] as Record<string, string> });
        if (chosen.length === 0) problems.push(`${where} selects no pods`);
        for (const port of (spec['ports'] as { targetPort?: number | string; port: number }[]) ?? []) {
          const target = port.targetPort ?? port.port;
          for (const workload of chosen) {
            if (!workload.spec.template.spec.containers.some((container) => hasPort(container, target))) problems.push(`${where} sends port ${port.port} to ${target}, which ${describe(workload)} does not expose`);
          }
        }
      }
    }
    return problems;
  }

  private containerProblems(where: string, container: Container): string[] {
    const problems: string[] = [];
    const defined = new Set<string>();
    for (const source of container.envFrom ?? []) {
      if (source.configMapRef && !source.configMapRef.optional && !this.configMaps.has(source.configMapRef.name)) problems.push(`${where} reads ConfigMap ${source.configMapRef.name}, which does not exist`);
      if (source.secretRef && !source.secretRef.optional && !this.secrets.has(source.secretRef.name)) problems.push(`${where} reads Secret ${source.secretRef.name}, which does not exist`);
      for (const key of source.configMapRef ? (this.configMaps.get(source.configMapRef.name) ?? []) : []) defined.add(key);
      for (const key of source.secretRef ? (this.secrets.get(source.secretRef.name) ?? []) : []) defined.add(key);
    }
    for (const variable of container.env ?? []) {
      const secret = variable.valueFrom?.secretKeyRef;
      const configMap = variable.valueFrom?.configMapKeyRef;
      if (secret && !secret.optional && !this.secrets.get(secret.name)?.has(secret.key)) problems.push(`${where} env ${variable.name} reads key ${secret.key} of Secret ${secret.name}, which ${this.secrets.has(secret.name) ? 'has no such key' : 'does not exist'}`);
      if (configMap && !configMap.optional && !this.configMaps.get(configMap.name)?.has(configMap.key)) problems.push(`${where} env ${variable.name} reads key ${configMap.key} of ConfigMap ${configMap.name}, which ${this.configMaps.has(configMap.name) ? 'has no such key' : 'does not exist'}`);
      // Kubernetes expands $(NAME) only from variables defined before this one; otherwise the text stays as it is.
      for (const [, name] of (variable.value ?? '').matchAll(/(?<!\$)\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)) {
        if (!defined.has(name!)) problems.push(`${where} env ${variable.name} uses $(${name}), which is not defined before it`);
      }
      defined.add(variable.name);
    }
    for (const [kind, probe] of [['startup', container.startupProbe], ['liveness', container.livenessProbe], ['readiness', container.readinessProbe]] as const) {
      const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
      if (port !== undefined && !hasPort(container, port)) problems.push(`${where} ${kind} probe uses port ${port}, which is not one of its container ports`);
    }
    return problems;
  }
}

function hasPort(container: Container, port: number | string): boolean {
  return (container.ports ?? []).some((candidate) => (typeof port === 'number' ? candidate.containerPort === port : candidate.name === port));
}

export function matches(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    if (operator === 'In') return values.includes(labels[key]!);
    if (operator === 'NotIn') return !values.includes(labels[key]!);
    if (operator === 'Exists') return key in labels;
    return !(key in labels);
  });
  return byLabels && byExpressions;
}
