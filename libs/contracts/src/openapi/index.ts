export { documentedRoutes, openApiDocument, OPENAPI_DOCUMENT_PATH } from './document.js';
export { OPERATIONS, openApiPath, type Operation, type RouteKey } from './operations.js';
export { SCHEMAS, type JsonSchema } from './schemas.js';
