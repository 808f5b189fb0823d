export { createOpenApiDocument, type OpenApiDocumentOptions } from './create-openapi-document.js';
export type { JsonObject, JsonValue } from './json-schema.js';
