/**
 * Every error the papers API answers with, by code: its HTTP status and its `detail`.
 * This table is the one place statuses are decided.
 */
export const API_ERRORS = {
  'not-found': { status: 404, detail: 'Not found.' },
  'invalid-page': { status: 404, detail: 'Invalid page.' },
  // Django REST Framework's CursorPagination answers a cursor it cannot read so.
  'invalid-cursor': { status: 404, detail: 'Invalid cursor' },
  'query-too-long': { status: 400, detail: 'Search query too long: at most 1000 characters.' },
  'too-many-terms': { status: 400, detail: 'Search query has too many terms: at most 32.' },
  'malformed-encoding': {
    status: 400,
    detail: 'Malformed query string: invalid percent-encoding or UTF-8.',
  },
  'control-character': { status: 400, detail: 'Query string contains control characters.' },
  // The JSON body is the errors by parameter (django-filter's shape); this detail is the HTML page's heading.
  'invalid-filter': { status: 400, detail: 'Invalid filter value.' },
  'invalid-host': { status: 400, detail: 'Invalid host: it is not among the allowed hosts of this server.' },
  'method-not-allowed': { status: 405, detail: 'Method "{method}" not allowed.' },
  'not-acceptable': { status: 406, detail: 'Could not satisfy the request Accept header.' },
  'source-unavailable': {
    status: 503,
    detail: 'The paper catalogue is temporarily unavailable. Try again later.',
  },
  'source-timeout': {
    status: 503,
    detail: 'The paper catalogue did not answer in time. Try again later.',
  },
  'query-budget': {
    status: 503,
    detail: 'This search needs more work than one request may take. Narrow it (longer or more specific terms) or try again later.',
  },
  'source-busy': {
    status: 503,
    detail: 'The server is busy answering other searches. Try again shortly.',
  },
} as const satisfies Record<string, { status: number; detail: string }>;

/** The code of an error answer. */
export type ApiErrorCode = keyof typeof API_ERRORS;

/** The JSON body of an error: `{"detail": ...}`. */
export function errorDetail(code: ApiErrorCode, method = ''): string {
  return API_ERRORS[code].detail.replace('{method}', method);
}
