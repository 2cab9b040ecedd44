// Writes the client's copy of the OpenAPI document and the TypeScript types generated from it.
// Run after changing the public API: `npx nx run client:generate` (the client's test fails until then).
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '@smsq/contracts';
import { generatedFiles } from './generated-files.mjs';

const files = await generatedFiles(openApiDocument());
for (const [path, text] of Object.entries(files)) writeFileSync(new URL(`../${path}`, import.meta.url), text);
console.log(`wrote ${Object.keys(files).join(' and ')}`);
