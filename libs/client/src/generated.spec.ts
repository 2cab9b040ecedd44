import { readFileSync } from 'node:fs';
import { openApiDocument } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the generator is a plain script, shared with `nx run client:generate`.
import { generatedFiles } from '../scripts/generated-files.mjs';

describe('the generated client', () => {
  it('is generated from the current OpenAPI document (else run `npx nx run client:generate`)', async () => {
    const files: Record<string, string> = await generatedFiles(openApiDocument());
    for (const [path, text] of Object.entries(files)) {
      expect(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'), `${path} is out of date: run npx nx run client:generate`).toBe(text);
    }
  });
});
