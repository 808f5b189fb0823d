import { EncodedPaper, toJsonBytes } from '../encoded-paper.js';
import { buildPageLinks, pageCount } from '../pagination/page-links.js';
import { parseListQuery, type ListRequest } from '../query/parse-list-query.js';
import { lastValue, parseQueryString } from '../query/query-string.js';
import type { PaperQuery } from '../source.js';
import { computeEtag, ifNoneMatchMatches } from './etag.js';
import { resolveHandlerOptions, type PapersHandlerOptions, type ResolvedHandlerOptions } from './handler-options.js';
import { negotiateRepresentation } from './negotiate.js';
import { optionsMetadata } from './options-metadata.js';
import { concatBytes, encodeUtf8, errorResponse, jsonResponse, notModifiedResponse } from './respond.js';
import { routePapersPath } from './route-papers-path.js';
import type { PapersHandler, PapersRequest, PapersResponse } from './types.js';

// No catalogue has two billion papers; a larger offset is past the end without asking.
const MAX_OFFSET = 2 ** 31 - 1;

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
  return async (request) => {
    const queryStart = request.url.indexOf('?');
    const pathname = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    const rawQuery = queryStart === -1 ? '' : request.url.slice(queryStart + 1);
    const route = routePapersPath(pathname, request.basePath ?? '', queryStart === -1 ? '' : `?${rawQuery}`);
    if (route === null) return null;

    const method = request.method.toUpperCase();
    const isHead = method === 'HEAD';
    if (route.kind === 'redirect') {
      return jsonResponse(301, JSON.stringify({ detail: 'Moved permanently.' }), isHead, { Location: route.location });
    }
    const parsed = parseQueryString(rawQuery);
    const format = parsed.ok ? lastValue(parsed.pairs, 'format') : undefined;
    const representation = negotiateRepresentation(header(request, 'accept'), format);
    if (representation === null) return errorResponse('not-acceptable', isHead);
    if (representation === 'unknown-format') return errorResponse('not-found', isHead);
    if (method === 'OPTIONS') return jsonResponse(200, optionsMetadata(route.kind === 'list' ? 'list' : 'retrieve'), false);
    if (method !== 'GET' && !isHead) return errorResponse('method-not-allowed', isHead, { method });
    if (route.kind === 'not-found') return errorResponse('not-found', isHead);
    if (!parsed.ok) return errorResponse(parsed.error, isHead);

    const version = config.source.version?.();
    const etag =
      version === undefined ? undefined : computeEtag(version, [representation, linkOrigin(config, request), request.url]);
    if (etag !== undefined && ifNoneMatchMatches(header(request, 'if-none-match'), etag)) {
      return notModifiedResponse(etag);
    }
    const cacheHeaders: Record<string, string> = etag === undefined ? {} : { ETag: etag };
    try {
      if (route.kind === 'retrieve') {
        const paper = await config.source.get(route.id, sourceCallOptions(request));
        if (paper === null) return errorResponse('not-found', isHead);
        return jsonResponse(200, toJsonBytes(paper), isHead, cacheHeaders);
      }
      const list = parseListQuery(parsed.pairs, config);
      if (!list.ok) return errorResponse(list.error, isHead);
      return await listPapers(config, request, pathname, list.request, isHead, cacheHeaders);
    } catch (error) {
      if (!request.signal?.aborted) config.onError(error, request);
      return errorResponse('source-unavailable', isHead);
    }
  };
}

async function listPapers(
  config: ResolvedHandlerOptions,
  request: PapersRequest,
  pathname: string,
  list: ListRequest,
  isHead: boolean,
  cacheHeaders: Record<string, string>,
): Promise<PapersResponse> {
  const { pageSize } = list;
  const query = (offset: number, limit: number): PaperQuery => ({
    terms: list.terms,
    filters: list.filters,
    ordering: list.ordering,
    offset,
    limit,
  });
  let page = list.page;
  if (page === 'last') {
    const { count } = await config.source.list(query(0, 0), sourceCallOptions(request));
    page = pageCount(count, pageSize);
  }
  const offset = (page - 1) * pageSize;
  if (offset > MAX_OFFSET) return errorResponse('invalid-page', isHead);
  const { count, results } = await config.source.list(query(offset, pageSize), sourceCallOptions(request));
  const lastPage = pageCount(count, pageSize);
  if (page > lastPage) return errorResponse('invalid-page', isHead);

  const links = buildPageLinks({ origin: linkOrigin(config, request), path: pathname, pairs: list.pairs }, page, lastPage);
  const chunks: Uint8Array[] = [
    encodeUtf8(`{"count":${count},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":[`),
  ];
  results.forEach((paper, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(paper instanceof EncodedPaper ? paper.json : toJsonBytes(paper));
  });
  chunks.push(CLOSE);
  return jsonResponse(200, concatBytes(chunks), isHead, cacheHeaders);
}

const COMMA = encodeUtf8(',');
const CLOSE = encodeUtf8(']}');

function linkOrigin(config: ResolvedHandlerOptions, request: PapersRequest): string {
  if (config.baseUrl !== null) return config.baseUrl;
  if (request.origin) return request.origin;
  const host = header(request, 'host');
  return `http://${host ?? 'localhost'}`;
}

function sourceCallOptions(request: PapersRequest): { signal?: AbortSignal } {
  return request.signal ? { signal: request.signal } : {};
}

/** A request header by name, the first value when repeated. */
export function header(request: PapersRequest, name: string): string | undefined {
  const direct = request.headers[name];
  const value =
    direct !== undefined
      ? direct
      : Object.entries(request.headers).find(([key]) => key.toLowerCase() === name)?.[1];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value[0];
}
