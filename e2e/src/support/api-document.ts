import { ERROR_STATUS, openApiDocument, type ErrorCode } from '@smsq/contracts';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Every answer of the public API the end-to-end suite receives is held against the OpenAPI
 * document: a status the operation does not list, a body its schema refuses, an error code that
 * does not go with its status or a 429 without Retry-After fails the test that received it.
 */
const document = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, any> }>> };
const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
addFormats.default(ajv);
for (const field of Object.keys(document)) ajv.addKeyword(field);
ajv.addSchema(document, 'openapi.json');

const ROUTES = Object.entries(document.paths).map(([path, item]) => ({
  path,
  pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  item,
}));
const validators = new Map<string, ValidateFunction>();

function validatorFor(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escape = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** What is wrong with this answer by the document; empty when nothing is, or the path is not the public API's. */
export function answerProblems(method: string, url: string, status: number, headers: Headers, body: unknown): string[] {
  const path = new URL(url, 'http://smsq').pathname;
  if (!path.startsWith('/smsapi/')) return [];
  const route = ROUTES.find((candidate) => candidate.pattern.test(path));
  const operation = route?.item[method.toLowerCase()];
  if (!route || !operation) {
    // Not an operation: an unknown path is 404, a wrong method on a known one 405, both in the error shape.
    const expected = route ? 405 : 404;
    if (status !== expected) return [`${method} ${path} is not in the document, yet answered ${status} (expected ${expected})`];
    return errorShapeProblems(status, headers, body, validatorFor('/components/schemas/Error'));
  }
  const listed = operation.responses[String(status)];
  if (!listed && status < 400) return [`${method} ${route.path} answered ${status}, which the document does not list`];
  const key = listed ? String(status) : 'default';
  const media = operation.responses[key]?.content?.['application/json'];
  if (!media) return [`${method} ${route.path} ${status}: the document gives no JSON body`];
  const validate = validatorFor(`/paths/${escape(route.path)}/${method.toLowerCase()}/responses/${key}/content/application~1json/schema`);
  if (status >= 400) return errorShapeProblems(status, headers, body, validate);
  return validate(body) ? [] : [`${method} ${route.path} ${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 500)}`];
}

function errorShapeProblems(status: number, headers: Headers, body: unknown, validate: ValidateFunction): string[] {
  const problems: string[] = [];
  if (!validate(body)) problems.push(`${status}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(body).slice(0, 500)}`);
  else if (ERROR_STATUS[(body as { error: ErrorCode }).error] !== status) problems.push(`${status} carries error ${(body as { error: string }).error}, whose status is ${ERROR_STATUS[(body as { error: ErrorCode }).error]}`);
  if (status === 429 && !/^\d+$/.test(headers.get('retry-after') ?? '')) problems.push('429 without a Retry-After in seconds');
  if (status === 405 && !headers.get('allow')) problems.push('405 without Allow');
  return problems;
}

/** An answer's body as JSON, or its text when it is not JSON (so an assertion shows it), or undefined when empty. */
export function bodyOf(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Fails the test that received an answer the document does not allow. */
export function assertAnswerMatchesDocument(method: string, url: string, status: number, headers: Headers, body: unknown): void {
  const problems = answerProblems(method, url, status, headers, body);
  if (problems.length > 0) throw new Error(`the answer does not match the OpenAPI document: ${problems.join('; ')}`);
}

/** A fetch for the typed client that holds every answer against the document, as `Stack.http` does. */
export async function documentCheckedFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  const text = await response.clone().text();
  assertAnswerMatchesDocument(request.method, request.url, response.status, response.headers, bodyOf(text));
  return response;
}
