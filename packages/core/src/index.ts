/**
 * @paperlist/core: the Papers with Code API v1 as pure functions over a pluggable
 * {@link PaperSource}. Adapters for Express and Koa live in their own packages; the
 * WHATWG handler here serves fetch-style runtimes directly.
 *
 * This entry runs anywhere: it imports no Node built-in and generates no code from strings
 * (Cloudflare Workers, Deno, Bun, browsers). What needs Node (file loaders, query threads,
 * snapshots, the `node:http` listener) is in `@paperlist/core/node`.
 */
export type { Paper } from './paper.js';
export { PAPER_FIELDS, serializePaper } from './paper.js';
export { EncodedPaper, toPaper, toJsonBytes, type PaperRecord } from './encoded-paper.js';
export type {
  OrderField,
  OrderKey,
  OrderPosition,
  Ordering,
  PaperFilters,
  PaperPage,
  PaperQuery,
  PaperSource,
  SearchTerm,
  SourceCallOptions,
} from './source.js';

export { foldText } from './text/fold-text.js';
export { textWords } from './text/words.js';
export { parseSearch, MAX_QUERY_LENGTH, MAX_QUERY_TERMS, type SearchParseResult } from './text/parse-search.js';

export { titleSortKey, compareCodePoints } from './ordering/title-sort-key.js';
export { parseOrderKeys, resolveOrdering, formatOrderKeys, ORDER_FIELDS, DEFAULT_ORDER } from './ordering/parse-ordering.js';
export { comparePapersBy, compareNullable, orderValue } from './ordering/compare-papers.js';

export { parseQueryString, formatQueryString, lastValue, type QueryPair } from './query/query-string.js';
export { parseListQuery, type ListRequest, type PageSizeOptions } from './query/parse-list-query.js';
export { pageUrl, cursorUrl, buildPageLinks, pageCount, type PageLinks, type PageLinkContext } from './pagination/page-links.js';
export { encodeCursor, decodeCursor, positionOf, compareToPosition } from './pagination/cursor.js';
export { FACET_FIELDS, CUT_FACETS, type FacetField, type FacetBucket, type FacetCounts } from './facets/facet-types.js';
export { DEFAULT_FACET_LIMIT, MAX_FACET_LIMIT } from './facets/facet-params.js';
export { facetValues, referenceFacets } from './facets/reference-facets.js';
export { MULTI_VALUED_FACETS } from './facets/facet-types.js';
export { highlightText, type HighlightOptions } from './highlight/highlight-text.js';

export { paperWords, type PaperWords } from './search/paper-words.js';
export { countOccurrences, termOccurrences, termMatches, type Occurrences, type TermOccurrences } from './search/term-occurrences.js';
export {
  RELEVANCE,
  SHORT_PREFIX_LENGTH,
  inverseDocumentFrequency,
  STOP_TERM_SHARE,
  termWeight,
  fieldScore,
  prefixWeightOf,
  termScore,
  type FieldLengths,
} from './search/relevance.js';

export type { PapersRequest, PapersRequestBody, PapersResponse, PapersHandler } from './http/types.js';
export { DEFAULT_MAX_WRITE_BYTES } from './http/writes/write-options.js';
export { API_ERRORS, errorDetail, type ApiErrorCode } from './http/api-errors.js';
export { createPapersHandler } from './http/papers-handler.js';
export { createFetchHandler, type FetchHandlerOptions, type FetchHandler, type FallthroughFetchHandler } from './http/fetch-handler.js';
export { PaperlistOptionsError, type PapersHandlerOptions } from './http/handler-options.js';
export { negotiateRepresentation, type Representation } from './http/negotiate.js';
export { CONTRACT_HEADERS } from './http/respond.js';

export { createMemorySource, DEFAULT_BUDGET_MS, type MemorySource, type MemorySourceOptions } from './memory/memory-source.js';
export { DEFAULT_MERGE_POLICY, type MergePolicy } from './segments/merge-policy.js';
export { createScanSource, type ScanSourceOptions } from './scan/scan-source.js';
export { QueryBudgetError, SourceOverloadedError } from './source-errors.js';
export { isWritableSource, InvalidChangeError, type PaperChange, type WriteResult, type WritableSource } from './writes/paper-changes.js';
export { checkChanges, upserts, deletes } from './writes/check-changes.js';
export { netChanges, papersAfter, papersAfterStream } from './writes/apply-changes.js';

export { PaperSchema, validatePaper, isCalendarDate, type PaperValidation } from './paper-schema.js';

export { createOpenApiDocument, type OpenApiDocumentOptions, type JsonObject, type JsonValue } from './openapi/index.js';
export {
  renderListPage,
  renderPaperPage,
  renderErrorPage,
  renderDocument,
  escapeHtml,
  safeExternalUrl,
  htmlResponse,
  htmlErrorResponse,
  ORDERING_CHOICES,
  HTML_CONTENT_TYPE,
  type ListPageView,
  type PaperPageView,
  type ErrorPageView,
} from './html/index.js';
export { LIST_QUERY_PARAMETERS, type ListQueryParameter } from './query/parse-list-query.js';
export { FORMAT_VALUES } from './http/negotiate.js';
export { DEFAULT_PAGE_SIZE, DEFAULT_MAX_PAGE_SIZE } from './http/handler-options.js';
export { pwcRecordToPaper, idFromPaperUrl, PWC_FIELDS, type PwcRecordValidation } from './formats/pwc-record.js';
export { nameSlug, taskSlugs, methodSlugs, normalizeAnnotations, readPwcAnnotations, type PaperAnnotations, type MethodRecord, type AnnotationMap } from './annotations/annotations.js';
export { detectRecordFormat, RECORD_FORMATS, type RecordFormat, type RecordFormatOption } from './formats/record-format.js';
export { IndexBuilder, Engine, type IndexData, type EngineAnswer } from './engine/index.js';
// The extension filters (issue 19): date range, author, proceeding and venue.
export { dayBound, yearRange, publishedInRange, type DayRange } from './filters/date-range.js';
export { venueKey, venueKeysFor, DEFAULT_VENUE_ALIASES } from './filters/venue-key.js';
export { nameHasWords, authorsMatch } from './filters/author-match.js';
export { hasExtensionFilters, matchesExtensionFilters } from './filters/reference-filters.js';
export { EXTENSION_PARAMETERS, readExtensionFilters, type ExtensionParameter, type ExtensionOptions, type FieldErrors } from './filters/extension-params.js';
