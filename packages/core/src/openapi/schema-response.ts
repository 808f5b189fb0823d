import { computeEtag, ifNoneMatchMatches } from '../http/etag.js';
import type { ResolvedHandlerOptions } from '../http/handler-options.js';
import { negotiateRepresentation } from '../http/negotiate.js';
import { errorResponse, jsonResponse, notModifiedResponse } from '../http/respond.js';
import type { PapersRequest, PapersResponse } from '../http/types.js';
import { createOpenApiDocument } from './create-openapi-document.js';

const SCHEMA_METADATA = JSON.stringify({
  name: 'Schema',
  description: 'The OpenAPI 3.1 document of this API.',
  renders: ['application/json'],
  parses: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
});

/**
 * The answer at `{mount}/schema/`: the OpenAPI document as JSON for `GET`/`HEAD` (its servers
 * entry pointing at the origin links use), metadata for `OPTIONS`, 405 for other methods, and
 * 406 when `Accept` excludes JSON and HTML alike (a browser asking for HTML gets the JSON).
 * The document is the same for every request from one origin, so it is tagged by its content.
 */
export function schemaResponse(
  config: ResolvedHandlerOptions,
  request: PapersRequest,
  mount: string,
  origin: string,
): PapersResponse {
  const method = request.method.toUpperCase();
  const isHead = method === 'HEAD';
  const accept = headerValue(request, 'accept');
  if (negotiateRepresentation(accept, undefined) === null) return errorResponse('not-acceptable', isHead);
  if (method === 'OPTIONS') return jsonResponse(200, SCHEMA_METADATA, false);
  if (method !== 'GET' && !isHead) return errorResponse('method-not-allowed', isHead, { method });
  const body = JSON.stringify(
    createOpenApiDocument({ mount, serverUrl: origin, pageSize: config.pageSize, maxPageSize: config.maxPageSize, extensions: config.extensions !== false, writes: config.writes !== null }),
  );
  const etag = computeEtag('openapi', [body]);
  if (ifNoneMatchMatches(headerValue(request, 'if-none-match'), etag)) return notModifiedResponse(etag);
  return jsonResponse(200, body, isHead, { ETag: etag });
}

function headerValue(request: PapersRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(request.headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}
