import * as admissionregistrationV1 from 'kubernetes-models/admissionregistration.k8s.io/v1';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as networkingV1 from 'kubernetes-models/networking.k8s.io/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as rbacV1 from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import * as coreV1 from 'kubernetes-models/v1';
import type { RenderedObject } from './kustomize.js';

interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: unknown): { validate(): void };
}

/** Every built-in kind these manifests may use, by `apiVersion` and `kind`, with its schema from Kubernetes' OpenAPI document. */
const MODELS = new Map<string, ModelClass>(
  [admissionregistrationV1, appsV1, autoscalingV2, batchV1, networkingV1, policyV1, rbacV1, coreV1]
    .flatMap((module) => Object.values(module) as unknown[])
    .filter((value): value is ModelClass => typeof value === 'function' && typeof (value as Partial<ModelClass>).kind === 'string' && typeof (value as Partial<ModelClass>).apiVersion === 'string')
    .map((model) => [`${model.apiVersion}/${model.kind}`, model]),
);

export function isBuiltIn(object: RenderedObject): boolean {
  return MODELS.has(`${object.apiVersion}/${object.kind}`);
}

/** The schema's complaints about one built-in object (none when it is valid). */
export function schemaErrors(object: RenderedObject): string[] {
  const model = MODELS.get(`${object.apiVersion}/${object.kind}`);
  if (!model) return [`${object.apiVersion} ${object.kind} is not a built-in kind kubernetes-models knows`];
  try {
    new model(object).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string; message?: string }[] }).errors;
    return errors?.length ? errors.map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`) : [String(error)];
  }
}
