import type { RenderedObject } from './kustomize.js';

/**
 * The custom resources of the operators overlay, which kubernetes-models does not know: the fields
 * smsq relies on are checked by hand, and the Secrets each operator generates from them are listed
 * with their keys, so the services' references to them can be checked like any other.
 *
 * CloudNativePG (pkg/specs/secrets.go, CreateSecret): `<cluster>-app` always, `<cluster>-superuser`
 * when `spec.enableSuperuserAccess` is true; both carry username, user, password, dbname, host
 * (`<cluster>-rw`), port, pgpass, uri, jdbc-uri, fqdn-uri, fqdn-jdbc-uri. `spec.instances` is the
 * one field its CRD requires. The RabbitMQ Cluster Operator (internal/resource/default_user_secret.go):
 * `<cluster>-default-user` with username, password, default_user.conf, provider, type, host
 * (`<cluster>.<namespace>.svc`) and port; a Service named as the cluster.
 */
export interface OperatorResource {
  /** What is wrong with the resource, as far as smsq relies on it (none when it is right). */
  problems(object: RenderedObject): string[];
  /** The Secrets the operator creates for it: name → keys. */
  generatedSecrets(object: RenderedObject): Map<string, string[]>;
  /** The Services the operator creates for it. */
  generatedServices(object: RenderedObject): string[];
}

const CNPG_SECRET_KEYS = ['username', 'user', 'password', 'dbname', 'host', 'port', 'pgpass', 'uri', 'jdbc-uri', 'fqdn-uri', 'fqdn-jdbc-uri'];
const RABBITMQ_SECRET_KEYS = ['username', 'password', 'default_user.conf', 'provider', 'type', 'host', 'port'];

type Spec = Record<string, unknown>;
const specOf = (object: RenderedObject): Spec => (typeof object['spec'] === 'object' && object['spec'] !== null ? (object['spec'] as Spec) : {});
const isPositiveInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 1;
const isQuantity = (value: unknown): boolean => typeof value === 'string' && /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$/.test(value);

export const OPERATOR_RESOURCES = new Map<string, OperatorResource>([
  [
    'postgresql.cnpg.io/v1/Cluster',
    {
      problems(object) {
        const spec = specOf(object);
        const storage = (spec['storage'] ?? {}) as Spec;
        const initdb = ((spec['bootstrap'] ?? {}) as Spec)['initdb'] as Spec | undefined;
        return [
          isPositiveInteger(spec['instances']) ? '' : 'spec.instances (required) must be an integer of at least 1',
          isQuantity(storage['size']) ? '' : 'spec.storage.size must be a quantity such as 10Gi',
          spec['enableSuperuserAccess'] === true ? '' : 'spec.enableSuperuserAccess must be true: the services create their own roles with the superuser Secret',
          typeof initdb?.['database'] === 'string' && typeof initdb['owner'] === 'string' ? '' : 'spec.bootstrap.initdb needs database and owner',
        ].filter(Boolean);
      },
      generatedSecrets(object) {
        const secrets = new Map([[`${object.metadata.name}-app`, CNPG_SECRET_KEYS]]);
        if (specOf(object)['enableSuperuserAccess'] === true) secrets.set(`${object.metadata.name}-superuser`, CNPG_SECRET_KEYS);
        return secrets;
      },
      generatedServices: (object) => ['rw', 'ro', 'r'].map((suffix) => `${object.metadata.name}-${suffix}`),
    },
  ],
  [
    'rabbitmq.com/v1beta1/RabbitmqCluster',
    {
      problems(object) {
        const spec = specOf(object);
        const persistence = (spec['persistence'] ?? {}) as Spec;
        return [
          spec['replicas'] === undefined || isPositiveInteger(spec['replicas']) ? '' : 'spec.replicas must be an integer of at least 1',
          persistence['storage'] === undefined || isQuantity(persistence['storage']) ? '' : 'spec.persistence.storage must be a quantity such as 10Gi',
        ].filter(Boolean);
      },
      generatedSecrets: (object) => new Map([[`${object.metadata.name}-default-user`, RABBITMQ_SECRET_KEYS]]),
      generatedServices: (object) => [object.metadata.name],
    },
  ],
]);

export function operatorResourceOf(object: RenderedObject): OperatorResource | undefined {
  return OPERATOR_RESOURCES.get(`${object.apiVersion}/${object.kind}`);
}
