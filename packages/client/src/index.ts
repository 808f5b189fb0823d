/**
 * @paperlist/client: a typed fetch client of the Papers with Code API v1 as paperlist serves
 * it. No dependencies; runs wherever `fetch` does.
 */
export { createClient, type ClientOptions, type PaperlistClient } from './create-client.js';
export { PaperlistError } from './paperlist-error.js';
export { parseRetryAfter, retryDelay, RETRIED_STATUSES, type RetryPolicy } from './retry-delay.js';
export { listQuery } from './list-query.js';
export type { Paper, PaperList, ListPapersParams, OrderField, OrderKey, RequestOptions, PaperInput, PaperChange, WriteResult, UpsertResult, BulkOptions, Page, Task, Method, SubListParams } from './types.js';
