import { API_ERRORS, errorDetail, type ApiErrorCode } from './api-errors.js';
import type { PapersResponse } from './types.js';

const utf8 = new TextEncoder();

/** The headers of every answer on the papers paths, errors included. */
export const CONTRACT_HEADERS: Readonly<Record<string, string>> = {
  Allow: 'GET, HEAD, OPTIONS',
  Vary: 'Accept',
  'Content-Type': 'application/json',
};

/**
 * A JSON answer: the contract headers, `Content-Length`, any extra headers, and the body
 * unless the request was a HEAD (which keeps the GET headers, length included).
 */
export function jsonResponse(
  status: number,
  body: Uint8Array | string,
  isHead: boolean,
  extraHeaders: Record<string, string> = {},
): PapersResponse {
  const bytes = typeof body === 'string' ? utf8.encode(body) : body;
  return {
    status,
    headers: { ...CONTRACT_HEADERS, ...extraHeaders, 'Content-Length': String(bytes.byteLength) },
    body: isHead ? null : bytes,
  };
}

/** An error answer `{"detail": ...}` with the status its code maps to. */
export function errorResponse(
  code: ApiErrorCode,
  isHead: boolean,
  options: { method?: string; headers?: Record<string, string> } = {},
): PapersResponse {
  const body = JSON.stringify({ detail: errorDetail(code, options.method) });
  return jsonResponse(API_ERRORS[code].status, body, isHead, options.headers);
}

/** `304 Not Modified`: the contract headers and the tag, no body. */
export function notModifiedResponse(etag: string): PapersResponse {
  return { status: 304, headers: { ...CONTRACT_HEADERS, ETag: etag }, body: null };
}

/** UTF-8 bytes of a string. */
export function encodeUtf8(text: string): Uint8Array {
  return utf8.encode(text);
}
