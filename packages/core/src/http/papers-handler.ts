import { toJsonBytes, toPaper } from '../encoded-paper.js';
import { listPapers } from './list-answer.js';
import { header, linkOrigin, requestHost } from './request-parts.js';
import { htmlErrorResponse, htmlResponse, HTML_CONTENT_TYPE } from '../html/html-response.js';
import { urlWithQuery, withJsonFormat } from '../html/page-addresses.js';
import { renderPaperPage } from '../html/render-paper-page.js';
import { schemaResponse } from '../openapi/schema-response.js';
import { parseListQuery, type ListRequest } from '../query/parse-list-query.js';
import { readFieldSelection } from '../query/field-selection.js';
import { projectFields } from '../query/project-fields.js';
import { lastValue, parseQueryString } from '../query/query-string.js';
import { isAllowedHost } from './allowed-hosts.js';
import { callSource } from './call-source.js';
import { computeEtag, ifNoneMatchMatches } from './etag.js';
import { fieldErrorsResponse } from './field-errors-response.js';
import { resolveHandlerOptions, type PapersHandlerOptions } from './handler-options.js';
import type { ApiErrorCode } from './api-errors.js';
import { negotiateRepresentation } from './negotiate.js';
import { optionsMetadata } from './options-metadata.js';
import { CONTRACT_HEADERS, errorResponse, jsonResponse, notModifiedResponse } from './respond.js';
import { mountPrefix, routePapersPath } from './route-papers-path.js';
import { sourceFailure } from './source-failure.js';
import type { PapersHandler, PapersResponse } from './types.js';
import { createWriteRoutes, isWrite, WRITE_ALLOW } from './writes/write-routes.js';
import { answerAnnotationRoute, isAnnotationRoute } from './annotation-routes.js';


/**
 * The papers API as one framework-free function from a neutral request to a neutral
 * response. Adapters (Express, Koa, fetch) only translate to and from it.
 *
 * @example
 * const handle = createPapersHandler({ source: createMemorySource(papers) });
 * const response = await handle({ method: 'GET', url: '/papers/?q=bert', headers: {} });
 */
export function createPapersHandler(options: PapersHandlerOptions): PapersHandler {
  const config = resolveHandlerOptions(options);
  const write = config.writes === null ? null : createWriteRoutes(config, config.writes);
  const handle: PapersHandler = async (request) => {
    const queryStart = request.url.indexOf('?');
    const pathname = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    const rawQuery = queryStart === -1 ? '' : request.url.slice(queryStart + 1);
    const route = routePapersPath(pathname, request.basePath ?? '', queryStart === -1 ? '' : `?${rawQuery}`, config.extensions !== false);
    if (route === null) return null;

    const method = request.method.toUpperCase();
    const isHead = method === 'HEAD';
    const host = requestHost(request);
    if (config.allowedHosts !== null && host !== undefined && !isAllowedHost(host, config.allowedHosts)) {
      return errorResponse('invalid-host', isHead);
    }
    if (route.kind === 'redirect') {
      return jsonResponse(301, JSON.stringify({ detail: 'Moved permanently.' }), isHead, { Location: route.location });
    }
    if (route.kind === 'schema') return schemaResponse(config, request, mountPrefix(request.basePath ?? ''), linkOrigin(config, request));
    const parsed = parseQueryString(rawQuery);
    const format = parsed.ok ? lastValue(parsed.pairs, 'format') : undefined;
    const representation = negotiateRepresentation(header(request, 'accept'), format, { jsonl: config.extensions !== false });
    if (representation === null) return errorResponse('not-acceptable', isHead);
    if (representation === 'unknown-format') return errorResponse('not-found', isHead);
    // The same error as an HTML page when a browser asked for one.
    const listPath = `${mountPrefix(request.basePath ?? '')}/papers/`;
    const fail = (code: ApiErrorCode): PapersResponse =>
      representation === 'html'
        ? htmlErrorResponse(code, isHead, { listUrl: listPath, method })
        : errorResponse(code, isHead, { method });
    if (method === 'OPTIONS') return jsonResponse(200, optionsMetadata(route.kind === 'list' || isAnnotationRoute(route) ? 'list' : 'retrieve'), false);
    if (write !== null && isWrite(route, method)) return write(request, route, method);
    if (method !== 'GET' && !isHead) return fail('method-not-allowed');
    if (route.kind === 'not-found') return fail('not-found');
    if (!parsed.ok) return fail(parsed.error);

    const version = config.source.version?.();
    // An export is a stream made as it is sent: no ETag (the catalogue may change during it).
    const etag =
      version === undefined || representation === 'jsonl' ? undefined : computeEtag(version, [representation, linkOrigin(config, request), request.url]);
    if (etag !== undefined && ifNoneMatchMatches(header(request, 'if-none-match'), etag)) {
      const notModified = notModifiedResponse(etag);
      if (representation === 'html') notModified.headers['Content-Type'] = HTML_CONTENT_TYPE;
      return notModified;
    }
    const cacheHeaders: Record<string, string> = etag === undefined ? {} : { ETag: etag };
    try {
      if (isAnnotationRoute(route)) {
        if (representation === 'jsonl' && route.kind !== 'task-papers') return errorResponse(format === 'jsonl' ? 'not-found' : 'not-acceptable', isHead);
        const answer = { representation, isHead, cacheHeaders, fail };
        const origin = linkOrigin(config, request);
        const list = (request_: ListRequest) => listPapers(config, request, pathname, request_, answer);
        return await answerAnnotationRoute(config, request, route, { pairs: parsed.pairs, pathname, origin, isHead, cacheHeaders, fail, list });
      }
      if (route.kind === 'retrieve') {
        if (representation === 'jsonl') return errorResponse(format === 'jsonl' ? 'not-found' : 'not-acceptable', isHead);
        const selection = config.extensions === false ? ({ ok: true, fields: null } as const) : readFieldSelection(parsed.pairs);
        if (!selection.ok) return fieldErrorsResponse(selection.errors, isHead, representation === 'html' ? { listUrl: listPath } : null);
        const paper = await callSource((options) => config.source.get(route.id, options), request.signal, config.timeoutMs);
        if (paper === null) return fail('not-found');
        if (representation === 'html') {
          const jsonUrl = urlWithQuery(linkOrigin(config, request) + pathname, withJsonFormat(parsed.pairs));
          return htmlResponse(200, renderPaperPage({ paper: toPaper(paper), listUrl: listPath, jsonUrl }), isHead, cacheHeaders);
        }
        const body = selection.fields === null ? toJsonBytes(paper) : projectFields(paper, selection.fields);
        return jsonResponse(200, body, isHead, cacheHeaders);
      }
      const list = parseListQuery(parsed.pairs, config);
      if (!list.ok) {
        if (list.fieldErrors === undefined) return fail(list.error);
        return fieldErrorsResponse(list.fieldErrors, isHead, representation === 'html' ? { listUrl: listPath } : null);
      }
      const answer = { representation, isHead, cacheHeaders, fail };
      return await listPapers(config, request, pathname, list.request, answer);
    } catch (error) {
      return sourceFailure(config, request, error, fail);
    }
  };
  if (write === null) return handle;
  // With writes on, the list and paper answers name the write methods in `Allow`.
  return async (request) => {
    const answer = await handle(request);
    if (answer === null || answer.headers['Allow'] !== CONTRACT_HEADERS.Allow) return answer;
    const path = request.url.split('?', 1)[0]!;
    const kind = routePapersPath(path, request.basePath ?? '', '')?.kind;
    if (kind === 'list') answer.headers['Allow'] = WRITE_ALLOW.list;
    else if (kind === 'retrieve' || kind === 'not-found') answer.headers['Allow'] = WRITE_ALLOW.retrieve;
    return answer;
  };
}
