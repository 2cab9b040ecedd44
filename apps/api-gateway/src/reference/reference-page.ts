import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { OPENAPI_DOCUMENT_PATH } from '@smsq/contracts';

/** Where the API reference page lives; its assets come from the `swagger-ui-dist` package, never a CDN. */
export const REFERENCE_PAGE_PATH = '/docs';

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>smsq API reference</title>
<link rel="icon" type="image/png" href="${REFERENCE_PAGE_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${REFERENCE_PAGE_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${REFERENCE_PAGE_PATH}/swagger-ui-bundle.js"></script>
<script src="${REFERENCE_PAGE_PATH}/reference.js"></script>
</body>
</html>
`;

/** Kept out of the page so a Content-Security-Policy without inline scripts still allows it. */
const START_SCRIPT = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_DOCUMENT_PATH)}, dom_id: '#reference', deepLinking: true, defaultModelsExpandDepth: 0 });\n`;

const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export type ReferenceAsset = { kind: 'file'; path: string; contentType: string } | { kind: 'text'; text: string; contentType: string };

/** The only files the page needs, by name: nothing else of the package is served. */
export const REFERENCE_ASSETS: Readonly<Record<string, ReferenceAsset>> = {
  'swagger-ui.css': { kind: 'file', path: join(SWAGGER_UI_DIR, 'swagger-ui.css'), contentType: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { kind: 'file', path: join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js'), contentType: 'text/javascript; charset=utf-8' },
  // Named in the page, so the browser does not ask for a /favicon.ico nobody serves.
  'favicon-32x32.png': { kind: 'file', path: join(SWAGGER_UI_DIR, 'favicon-32x32.png'), contentType: 'image/png' },
  'reference.js': { kind: 'text', text: START_SCRIPT, contentType: 'text/javascript; charset=utf-8' },
};
