import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../errors.js';
import { openApiDocument } from './document.js';

const document = openApiDocument({ profile: 'A' });

/** Each operation's answers: `[path, method, status, media]`. */
function answers(): Array<[string, string, string, Record<string, any>]> {
  const found: Array<[string, string, string, Record<string, any>]> = [];
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Record<string, any>>)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, answer] of Object.entries(operation.responses as Record<string, any>)) found.push([path, method, status, answer]);
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by Redocly\'s recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license-url': 'off', 'operation-4xx-response': 'error' } });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.message} at ${problem.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('has schemas that compile, with every reference resolved, and examples that match them', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true, strictTypes: false });
    addFormats.default(ajv);
    // The document itself is no schema: only the schemas its pointers reach are compiled, strictly.
    for (const field of Object.keys(document)) ajv.addKeyword(field);
    ajv.addSchema(document, 'openapi.json');
    let examples = 0;
    for (const [path, method, status, answer] of answers()) {
      const media = answer.content?.['application/json'];
      if (!media) continue;
      const validate = ajv.compile({ $ref: `openapi.json#/paths/${pointer(path)}/${method}/responses/${status}/content/application~1json/schema` });
      if (media.example !== undefined) {
        examples += 1;
        expect(validate(media.example), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
    expect(examples).toBeGreaterThan(10);
  });

  it('documents every error code the contract has, in the error shape', () => {
    const codes = (document as any).components.schemas.Error.properties.error.enum;
    expect(new Set(codes)).toEqual(new Set(Object.keys(ERROR_STATUS)));
    for (const [path, method, status, answer] of answers()) {
      if (status.startsWith('2')) continue;
      expect(answer.content['application/json'].schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
    }
  });

  it('states the profile it was built for', () => {
    expect((openApiDocument({ profile: 'B' }) as any).info['x-smsq-profile']).toBe('B');
  });
});

function pointer(path: string): string {
  return path.replace(/~/g, '~0').replace(/\//g, '~1');
}
