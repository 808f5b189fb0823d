import { refusalCode } from '../source-errors.js';
import type { ApiErrorCode } from './api-errors.js';
import { SourceTimeoutError } from './call-source.js';
import type { ResolvedHandlerOptions } from './handler-options.js';
import type { PapersRequest, PapersResponse } from './types.js';

/**
 * The `503` of a failed source call (a read or a write): a refusal (`query-budget`, `source-busy`)
 * or a timeout says so, anything else is `source-unavailable` and goes to `onError` (unless the
 * client went away); always with `Retry-After`.
 */
export function sourceFailure(
  config: ResolvedHandlerOptions,
  request: PapersRequest,
  error: unknown,
  fail: (code: ApiErrorCode) => PapersResponse,
): PapersResponse {
  const refusal = refusalCode(error);
  if (refusal === null && !request.signal?.aborted) config.onError(error, request);
  const answer = fail(refusal ?? (error instanceof SourceTimeoutError ? 'source-timeout' : 'source-unavailable'));
  answer.headers['Retry-After'] = String(config.retryAfterSeconds);
  return answer;
}
