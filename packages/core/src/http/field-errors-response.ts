import type { FieldErrors } from '../filters/extension-params.js';
import { htmlResponse } from '../html/html-response.js';
import { renderErrorPage } from '../html/render-error-page.js';
import { API_ERRORS } from './api-errors.js';
import { jsonResponse } from './respond.js';
import type { PapersResponse } from './types.js';

/**
 * `400` for invalid filter values. The JSON body is django-filter's: the messages by
 * parameter, `{"published_after":["Enter a valid date."]}` (what clients of django-filter
 * APIs already parse); the HTML page lists the same messages.
 */
export function fieldErrorsResponse(errors: FieldErrors, isHead: boolean, html: { listUrl: string } | null): PapersResponse {
  const { status, detail } = API_ERRORS['invalid-filter'];
  if (html === null) return jsonResponse(status, JSON.stringify(errors), isHead);
  const lines = Object.entries(errors).map(([name, messages]) => `${name}: ${messages.join(' ')}`);
  return htmlResponse(status, renderErrorPage({ status, detail: `${detail} ${lines.join('; ')}`, listUrl: html.listUrl }), isHead);
}
