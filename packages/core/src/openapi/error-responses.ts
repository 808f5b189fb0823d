import { API_ERRORS, errorDetail, type ApiErrorCode } from '../http/api-errors.js';
import { componentRef, type JsonObject } from './json-schema.js';

/** Component names of error responses by status; a status missing here is named `Status{code}`. */
const RESPONSE_NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

/** Codes whose JSON body is the errors by parameter (django-filter's shape, `FieldErrors`), not `{"detail"}`. */
const FIELD_ERRORS: ReadonlySet<ApiErrorCode> = new Set(['invalid-filter']);

/** Codes that are only ever answered in JSON, whatever was asked (no HTML page exists for them). */
const JSON_ONLY: ReadonlySet<ApiErrorCode> = new Set(['not-acceptable', 'invalid-host']);

/** The component name of the error response of a status. */
export function errorResponseName(status: number): string {
  return RESPONSE_NAMES[status] ?? `Status${status}`;
}

/** Every status of {@link API_ERRORS}, ascending, with its codes. */
export function errorStatuses(): Map<number, ApiErrorCode[]> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of Object.keys(API_ERRORS) as ApiErrorCode[]) {
    const { status } = API_ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

// The `detail` values of a status: fixed texts as they are, `{method}` templates as a pattern.
function detailSchema(codes: readonly ApiErrorCode[]): JsonObject {
  const alternatives: JsonObject[] = codes.map((code) => {
    const detail = API_ERRORS[code].detail;
    if (!detail.includes('{method}')) return { const: detail };
    const pattern = detail.split('{method}').map(escapeRegExp).join('[A-Z0-9!#$%&\'*+.^_`|~-]+');
    return { pattern: `^${pattern}$` };
  });
  return alternatives.length === 1 ? alternatives[0]! : { anyOf: alternatives };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `components.responses` for every status of {@link API_ERRORS}: the `{"detail": ...}` body
 * with exactly the details of that status (examples by code), or the HTML page of the error.
 */
export function errorResponseComponents(headers: JsonObject): JsonObject {
  const responses: JsonObject = {};
  for (const [status, codes] of errorStatuses()) {
    const examples: JsonObject = {};
    for (const code of codes) {
      examples[code] = FIELD_ERRORS.has(code)
        ? { summary: errorDetail(code), value: { published_after: ['Enter a valid date.'] } }
        : { value: { detail: errorDetail(code, 'POST') } };
    }
    const detailCodes = codes.filter((code) => !FIELD_ERRORS.has(code));
    const error: JsonObject = { ...componentRef('schemas', 'Error'), properties: { detail: detailSchema(detailCodes) } };
    const json: JsonObject = {
      schema: detailCodes.length === codes.length ? error : { anyOf: [error, componentRef('schemas', 'FieldErrors')] },
      examples,
    };
    const htmlToo = codes.some((code) => !JSON_ONLY.has(code));
    responses[errorResponseName(status)] = {
      description: codes.map((code) => `${code}: ${API_ERRORS[code].detail}`).join(' / '),
      headers,
      content: htmlToo ? { 'application/json': json, 'text/html': { schema: { type: 'string' } } } : { 'application/json': json },
    };
  }
  return responses;
}
