/**
 * Errors a source throws when it refuses work rather than fails: the handler answers them
 * with `503`, `Retry-After` and a `detail` saying what happened, and does not report them
 * to `onError` (they are the server protecting itself, not faults).
 */

/** The query needed more work than one request may take (see the memory source's `budgetMs`). */
export class QueryBudgetError extends Error {
  readonly code = 'query-budget';
  constructor(readonly budgetMs: number) {
    super(`paperlist: the query needed more than its budget of ${budgetMs} ms of work`);
    this.name = 'QueryBudgetError';
  }
}

/** Every worker is busy and the queue of waiting queries is full. */
export class SourceOverloadedError extends Error {
  readonly code = 'source-busy';
  constructor(readonly queued: number) {
    super(`paperlist: every query thread is busy and ${queued} queries are waiting`);
    this.name = 'SourceOverloadedError';
  }
}

/** Whether `error` is one of the refusals above (also across realms, by `code`). */
export function refusalCode(error: unknown): 'query-budget' | 'source-busy' | null {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'query-budget' || code === 'source-busy' ? code : null;
}
