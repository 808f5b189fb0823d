import { toJsonBytes, toPaper } from '../encoded-paper.js';
import { htmlErrorResponse, htmlResponse, HTML_CONTENT_TYPE } from '../html/html-response.js';
import { urlWithQuery, withJsonFormat } from '../html/page-addresses.js';
import { renderListPage } from '../html/render-list-page.js';
import { renderPaperPage } from '../html/render-paper-page.js';
import { schemaResponse } from '../openapi/schema-response.js';
import { buildPageLinks, cursorUrl, pageCount } from '../pagination/page-links.js';
import { encodeCursor, positionOf } from '../pagination/cursor.js';
import { parseListQuery, type ListRequest } from '../query/parse-list-query.js';
import { readFieldSelection, serializeFields } from '../query/field-selection.js';
import { projectFields } from '../query/project-fields.js';
import { lastValue, parseQueryString } from '../query/query-string.js';
import type { OrderKey, PaperPage, PaperQuery, SourceCallOptions } from '../source.js';
import { shapeFacets, type FacetRequest } from '../facets/facet-params.js';
import { paperHighlight } from '../highlight/highlight-params.js';
import { serializePaper } from '../paper.js';
import type { PaperRecord } from '../encoded-paper.js';
import { exportLines } from './export-stream.js';
import { isAllowedHost } from './allowed-hosts.js';
import { callSource } from './call-source.js';
import { computeEtag, ifNoneMatchMatches } from './etag.js';
import { fieldErrorsResponse } from './field-errors-response.js';
import { resolveHandlerOptions, type PapersHandlerOptions, type ResolvedHandlerOptions } from './handler-options.js';
import type { ApiErrorCode } from './api-errors.js';
import { negotiateRepresentation, type Representation } from './negotiate.js';
import { optionsMetadata } from './options-metadata.js';
import { concatBytes, CONTRACT_HEADERS, encodeUtf8, errorResponse, jsonResponse, notModifiedResponse } from './respond.js';
import { mountPrefix, routePapersPath } from './route-papers-path.js';
import { sourceFailure } from './source-failure.js';
import type { PapersHandler, PapersRequest, PapersResponse } from './types.js';
import { createWriteRoutes, isWrite, WRITE_ALLOW } from './writes/write-routes.js';
import { answerAnnotationRoute, isAnnotationRoute } from './annotation-routes.js';

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

/** How to write the answer of a list request. */
interface AnswerOptions {
  representation: Representation;
  isHead: boolean;
  cacheHeaders: Record<string, string>;
  fail: (code: ApiErrorCode) => PapersResponse;
}

async function listPapers(
  config: ResolvedHandlerOptions,
  request: PapersRequest,
  pathname: string,
  list: ListRequest,
  { representation, isHead, cacheHeaders, fail }: AnswerOptions,
): Promise<PapersResponse> {
  const { pageSize } = list;
  // Facets are counted only for JSON (the HTML view does not show them).
  const facets = representation === 'json' && list.facets !== null ? list.facets : null;
  const query = (offset: number, limit: number): PaperQuery => ({
    terms: list.terms,
    filters: list.filters,
    ordering: list.ordering,
    offset,
    limit,
    ...(facets === null ? {} : { facets: facets.fields }),
  });
  const close = (page: PaperPage) => (facets === null ? CLOSE : encodeUtf8(`],"facets":${JSON.stringify(shapeFacets(page.facets ?? {}, facets, venueAliasesOf(config)))}}`));
  const ask = (offset: number, limit: number) =>
    callSource((options) => config.source.list(query(offset, limit), options), request.signal, config.timeoutMs);
  if (representation === 'jsonl') return exportResponse(config, request, list, isHead);
  if (list.countOnly && representation !== 'html') {
    // The count alone: no page is read, no paper fetched, no links.
    const answer = await ask(0, 0);
    const body = concatBytes([encodeUtf8(`{"count":${answer.count},"next":null,"previous":null,"results":[`), close(answer)]);
    return jsonResponse(200, body, isHead, cacheHeaders);
  }
  if (list.cursor !== null && representation !== 'html' && list.ordering.kind === 'fields') {
    return walkPage(config, request, pathname, list, list.ordering.keys, { isHead, cacheHeaders }, facets, close);
  }
  let page = list.page === 'last' ? pageCount((await ask(0, 0)).count, pageSize) : list.page;
  const offset = (page - 1) * pageSize;
  if (offset > MAX_OFFSET) return fail('invalid-page');
  let answer = await ask(offset, pageSize);
  // The catalogue may be swapped between the two calls of `page=last`: ask again so the
  // answer comes wholly from one catalogue.
  for (let attempt = 0; list.page === 'last' && page !== pageCount(answer.count, pageSize) && attempt < 3; attempt++) {
    page = pageCount(answer.count, pageSize);
    answer = await ask((page - 1) * pageSize, pageSize);
  }
  const { count, results, resultsJson } = answer;
  const lastPage = pageCount(count, pageSize);
  if (page > lastPage) return fail('invalid-page');

  const context = { origin: linkOrigin(config, request), path: pathname, pairs: list.pairs };
  if (representation === 'html') {
    const view = { links: context, count, page, lastPage, pageSize, maxPageSize: config.maxPageSize, papers: results.map(toPaper), extensions: config.extensions !== false, terms: list.terms };
    return htmlResponse(200, renderListPage(view), isHead, cacheHeaders);
  }
  const links = buildPageLinks(context, page, lastPage);
  const chunks: Uint8Array[] = [
    encodeUtf8(`{"count":${count},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":[`),
  ];
  if (list.fields === null && list.highlight === null && resultsJson !== undefined) chunks.push(resultsJson);
  else {
    results.forEach((paper, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(paperJson(paper, list));
    });
  }
  chunks.push(close(answer));
  return jsonResponse(200, concatBytes(chunks), isHead, cacheHeaders);
}

/**
 * One paper of a JSON page: as stored, or its selected fields (`fields`/`omit`), followed by its
 * `_highlight` when asked for.
 */
function paperJson(record: PaperRecord, list: ListRequest): Uint8Array {
  if (list.fields === null && list.highlight === null) return toJsonBytes(record);
  if (list.highlight === null) return projectFields(record, list.fields!);
  const paper = toPaper(record);
  const json = list.fields === null ? serializePaper(paper) : serializeFields(paper, list.fields);
  if (list.highlight === null) return encodeUtf8(json);
  const marked = JSON.stringify(paperHighlight(paper, list.terms, list.highlight));
  return encodeUtf8(`${json === '{}' ? '{' : `${json.slice(0, -1)},`}"_highlight":${marked}}`);
}

/** The venue aliases facets merge by (none with the extensions off, when there are no facets either). */
function venueAliasesOf(config: ResolvedHandlerOptions): Readonly<Record<string, string>> {
  return config.extensions === false ? {} : config.extensions.venueAliases;
}

/**
 * The export (`format=jsonl`, or `Accept: application/x-ndjson`): every matching paper, one per
 * line, streamed (see `exportLines`). Needs an explicit ordering with `q`, like a cursor walk.
 */
function exportResponse(config: ResolvedHandlerOptions, request: PapersRequest, list: ListRequest, isHead: boolean): PapersResponse {
  if (list.ordering.kind !== 'fields') {
    return fieldErrorsResponse({ ordering: [EXPORT_NEEDS_ORDERING] }, isHead, null);
  }
  const headers = { ...CONTRACT_HEADERS, 'Content-Type': EXPORT_CONTENT_TYPE };
  if (isHead) return { status: 200, headers, body: null };
  const call = <T>(run: (options: SourceCallOptions) => Promise<T>) => callSource(run, request.signal, config.timeoutMs);
  return { status: 200, headers, body: null, stream: exportLines(config.source, list, list.ordering.keys, call) };
}

const EXPORT_CONTENT_TYPE = 'application/x-ndjson';
const EXPORT_NEEDS_ORDERING = 'An export of a search needs an explicit ordering (relevance changes as the catalogue does): add ordering=, such as ordering=-published.';

/**
 * One page of a cursor walk: the papers after the cursor's position (one more is asked for, to
 * know whether a next page exists), `next` carrying the position of the last one sent.
 */
async function walkPage(
  config: ResolvedHandlerOptions,
  request: PapersRequest,
  pathname: string,
  list: ListRequest,
  keys: readonly OrderKey[],
  { isHead, cacheHeaders }: Pick<AnswerOptions, 'isHead' | 'cacheHeaders'>,
  facets: FacetRequest | null,
  close: (page: PaperPage) => Uint8Array,
): Promise<PapersResponse> {
  const { pageSize } = list;
  const query: PaperQuery = { terms: list.terms, filters: list.filters, ordering: list.ordering, offset: 0, limit: pageSize + 1 };
  if (facets !== null) query.facets = facets.fields;
  if (list.cursor !== 'start' && list.cursor !== null) query.after = list.cursor;
  const answer = await callSource((options) => config.source.list(query, options), request.signal, config.timeoutMs);
  const { count, results } = answer;
  const page = results.slice(0, pageSize);
  const last = page.at(-1);
  const context = { origin: linkOrigin(config, request), path: pathname, pairs: list.pairs };
  const next = results.length > pageSize && last !== undefined ? cursorUrl(context, encodeCursor(keys, positionOf(toPaper(last), keys))) : null;
  const chunks: Uint8Array[] = [encodeUtf8(`{"count":${count},"next":${JSON.stringify(next)},"previous":null,"results":[`)];
  page.forEach((paper, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(paperJson(paper, list));
  });
  chunks.push(close(answer));
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

/** `host[:port]` the request was made for: from the adapter's origin, else the Host header. */
function requestHost(request: PapersRequest): string | undefined {
  if (request.origin) {
    const start = request.origin.indexOf('//');
    return start === -1 ? request.origin : request.origin.slice(start + 2);
  }
  return header(request, 'host');
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
