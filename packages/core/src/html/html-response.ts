import { API_ERRORS, errorDetail, type ApiErrorCode } from '../http/api-errors.js';
import { CONTRACT_HEADERS } from '../http/respond.js';
import type { PapersResponse } from '../http/types.js';
import { renderErrorPage } from './render-error-page.js';

/** The `Content-Type` of every HTML answer. */
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/**
 * Defence in depth behind the escaping: the pages run no script, load nothing, and their
 * form only submits to the same origin.
 */
export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
};

const utf8 = new TextEncoder();

/**
 * An HTML answer: the contract headers (`Allow`, `Vary: Accept`) with the HTML content type,
 * `Content-Length`, any extra headers, and the body unless the request was a HEAD.
 */
export function htmlResponse(
  status: number,
  html: string,
  isHead: boolean,
  extraHeaders: Record<string, string> = {},
): PapersResponse {
  const bytes = utf8.encode(html);
  return {
    status,
    headers: {
      ...CONTRACT_HEADERS,
      'Content-Type': HTML_CONTENT_TYPE,
      ...HTML_SECURITY_HEADERS,
      ...extraHeaders,
      'Content-Length': String(bytes.byteLength),
    },
    body: isHead ? null : bytes,
  };
}

/** An error as an HTML page, with the status and `detail` its code maps to in {@link API_ERRORS}. */
export function htmlErrorResponse(
  code: ApiErrorCode,
  isHead: boolean,
  context: { listUrl: string; method?: string },
): PapersResponse {
  const { status } = API_ERRORS[code];
  const html = renderErrorPage({ status, detail: errorDetail(code, context.method), listUrl: context.listUrl });
  return htmlResponse(status, html, isHead);
}
