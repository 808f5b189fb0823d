import { toJsonBytes, toPaper, type PaperRecord } from '../encoded-paper.js';
import { shapeFacets, type FacetRequest } from '../facets/facet-params.js';
import { paperHighlight } from '../highlight/highlight-params.js';
import { htmlResponse } from '../html/html-response.js';
import { renderListPage } from '../html/render-list-page.js';
import { encodeCursor, positionOf } from '../pagination/cursor.js';
import { buildPageLinks, cursorUrl, pageCount } from '../pagination/page-links.js';
import type { ListRequest } from '../query/parse-list-query.js';
import { projectFields } from '../query/project-fields.js';
import type { OrderKey, PaperPage, PaperQuery, SourceCallOptions } from '../source.js';
import type { ApiErrorCode } from './api-errors.js';
import { callSource } from './call-source.js';
import { exportLines } from './export-stream.js';
import { fieldErrorsResponse } from './field-errors-response.js';
import type { ResolvedHandlerOptions } from './handler-options.js';
import type { Representation } from './negotiate.js';
import { linkOrigin } from './request-parts.js';
import { concatBytes, joinAround } from './bytes.js';
import { CONTRACT_HEADERS, encodeUtf8, jsonResponse } from './respond.js';
import type { PapersRequest, PapersResponse } from './types.js';

/*
 * The answer of the list route, `{mount}/papers/`, once its query is read: a page (JSON or HTML),
 * the count alone, a cursor walk's page, or the export's stream; with the selected fields,
 * highlights and facets.
 */

// No catalogue has two billion papers; a larger offset is past the end without asking.
const MAX_OFFSET = 2 ** 31 - 1;

/** How to write the answer of a list request. */
export interface AnswerOptions {
  representation: Representation;
  isHead: boolean;
  cacheHeaders: Record<string, string>;
  fail: (code: ApiErrorCode) => PapersResponse;
}

export async function listPapers(
  config: ResolvedHandlerOptions,
  request: PapersRequest,
  pathname: string,
  list: ListRequest,
  { representation, isHead, cacheHeaders, fail }: AnswerOptions,
): Promise<PapersResponse> {
  const { pageSize } = list;
  // Facets are counted only for JSON (the HTML view does not show them).
  const facets = representation === 'json' && list.facets !== null ? list.facets : null;
  const query = (offset: number, limit: number, withFacets = true): PaperQuery => ({
    terms: list.terms,
    filters: list.filters,
    ordering: list.ordering,
    offset,
    limit,
    ...(facets === null || !withFacets ? {} : { facets: facets.fields }),
  });
  const close = (page: PaperPage) => (facets === null ? CLOSE : encodeUtf8(`],"facets":${JSON.stringify(shapeFacets(page.facets ?? {}, facets, venueAliasesOf(config)))}}`));
  const ask = (offset: number, limit: number, withFacets = true) =>
    callSource((options) => config.source.list(query(offset, limit, withFacets), options), request.signal, config.timeoutMs);
  if (representation === 'jsonl') return await exportResponse(config, request, list, isHead);
  if (list.countOnly && representation !== 'html') {
    // The count alone: no page is read, no paper fetched, no links.
    const answer = await ask(0, 0);
    const body = concatBytes([encodeUtf8(`{"count":${answer.count},"next":null,"previous":null,"results":[`), close(answer)]);
    answer.release?.();
    return jsonResponse(200, body, isHead, cacheHeaders);
  }
  if (list.cursor !== null && representation !== 'html' && list.ordering.kind === 'fields') {
    return walkPage(config, request, pathname, list, list.ordering.keys, { isHead, cacheHeaders }, facets, close);
  }
  // `page=last` asks for the count first: the facets come with the page itself.
  let page = list.page === 'last' ? pageCount(countOf(await ask(0, 0, false)), pageSize) : list.page;
  const offset = (page - 1) * pageSize;
  if (offset > MAX_OFFSET) return fail('invalid-page');
  let answer = await ask(offset, pageSize);
  // The catalogue may be swapped between the two calls of `page=last`: ask again so the
  // answer comes wholly from one catalogue.
  for (let attempt = 0; list.page === 'last' && page !== pageCount(answer.count, pageSize) && attempt < 3; attempt++) {
    page = pageCount(answer.count, pageSize);
    answer.release?.();
    answer = await ask((page - 1) * pageSize, pageSize);
  }
  const { count, results, resultsJson } = answer;
  const lastPage = pageCount(count, pageSize);
  if (page > lastPage) {
    answer.release?.();
    return fail('invalid-page');
  }

  const context = { origin: linkOrigin(config, request), path: pathname, pairs: list.pairs };
  if (representation === 'html') {
    const view = { links: context, count, page, lastPage, pageSize, maxPageSize: config.maxPageSize, papers: results.map(toPaper), extensions: config.extensions !== false, terms: list.terms };
    return handOver(htmlResponse(200, renderListPage(view), isHead, cacheHeaders), answer);
  }
  const links = buildPageLinks(context, page, lastPage);
  const head = encodeUtf8(`{"count":${count},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":[`);
  if (list.fields === null && list.highlight === null && resultsJson !== undefined) {
    // The page as the source encoded it; in its own buffer when the source leaves room around it.
    const tail = close(answer);
    const inPlace = answer.resultsJsonOwned === true ? joinAround(head, resultsJson, tail) : null;
    return handOver(jsonResponse(200, inPlace ?? concatBytes([head, resultsJson, tail]), isHead, cacheHeaders), answer);
  }
  const chunks: Uint8Array[] = [head];
  results.forEach((paper, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(paperJson(paper, list));
  });
  chunks.push(close(answer));
  return handOver(jsonResponse(200, concatBytes(chunks), isHead, cacheHeaders), answer);
}

/** The count of a page asked for only that; its memory goes back to the source at once. */
function countOf(page: PaperPage): number {
  page.release?.();
  return page.count;
}

/**
 * A response and the source's page it was made from: when the body lies in the page's own
 * buffer, the page's memory goes back to the source once the body is written (the response's
 * `release`); otherwise at once, since nothing reads the page any more.
 */
function handOver(response: PapersResponse, page: PaperPage): PapersResponse {
  const { release } = page;
  if (release === undefined) return response;
  const inPage = response.body !== null && page.resultsJson !== undefined && response.body.buffer === page.resultsJson.buffer;
  if (!inPage) {
    release();
    return response;
  }
  return { ...response, release };
}

/**
 * One paper of a JSON page: as stored, or its selected fields (`fields`/`omit`), followed by its
 * `_highlight` when asked for.
 */
function paperJson(record: PaperRecord, list: ListRequest): Uint8Array {
  const stored = list.fields === null ? toJsonBytes(record) : projectFields(record, list.fields);
  if (list.highlight === null) return stored;
  const marked = encodeUtf8(`"_highlight":${JSON.stringify(paperHighlight(toPaper(record), list.terms, list.highlight))}}`);
  // The paper's object without its closing brace, then the highlight as its last key.
  const open = stored.subarray(0, stored.length - 1);
  return concatBytes(stored.length === 2 ? [open, marked] : [open, COMMA, marked]);
}

/** The venue aliases facets merge by (none with the extensions off, when there are no facets either). */
function venueAliasesOf(config: ResolvedHandlerOptions): Readonly<Record<string, string>> {
  return config.extensions === false ? {} : config.extensions.venueAliases;
}

/**
 * The export (`format=jsonl`, or `Accept: application/x-ndjson`): every matching paper, one per
 * line, streamed (see `exportLines`). Needs an explicit ordering with `q`, like a cursor walk.
 */
async function exportResponse(config: ResolvedHandlerOptions, request: PapersRequest, list: ListRequest, isHead: boolean): Promise<PapersResponse> {
  if (list.ordering.kind !== 'fields') {
    return fieldErrorsResponse({ ordering: [EXPORT_NEEDS_ORDERING] }, isHead, null);
  }
  const headers = { ...CONTRACT_HEADERS, 'Content-Type': EXPORT_CONTENT_TYPE };
  if (isHead) return { status: 200, headers, body: null };
  const call = <T>(run: (options: SourceCallOptions) => Promise<T>) => callSource(run, request.signal, config.timeoutMs);
  return { status: 200, headers, body: null, stream: await exportLines(config.source, list, list.ordering.keys, call) };
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
  if (facets !== null) {
    query.facets = facets.fields;
    query.facetLimit = facets.limit;
  }
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
