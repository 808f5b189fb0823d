import { QueryBudgetError } from '@paperlist/core';
import { sqlState } from './db.js';

/**
 * The time budget of one source call (`list`, `get`): every statement it runs together, not
 * each one. A call runs up to five statements in turn (version, dictionary, count, document
 * frequencies, page); with only the server's per-statement `statement_timeout` a request could
 * take five budgets. Here one timer aborts the call's signal with a {@link QueryBudgetError}
 * when the budget is spent: the runner then rejects at once and cancels the running statement
 * on the server, so the request is answered `503` (code `query-budget`, with `Retry-After`)
 * within the budget and a few milliseconds.
 */
export interface CallDeadline {
  /** Aborted when the caller's signal aborts, the budget is spent or the call is shed (see {@link RunningCall}). */
  signal: AbortSignal | undefined;
  /** Stops the timer (the call is over). */
  done(): void;
}

/**
 * A call as the connection gate sees it: when it started, and how to stop it. Under
 * contention the gate sheds the oldest call holding a connection (see `ConnectionGate`), so
 * that slow queries cannot keep every connection for their whole budget.
 */
export interface RunningCall {
  /** `performance.now()` when the call started. */
  readonly startedAt: number;
  /** Aborts the call with `reason` (its running statement is then cancelled). */
  shed(reason: Error): void;
}

/** The calls of the deadlines' signals (a statement reaches the gate with its call's signal only). */
const calls = new WeakMap<AbortSignal, RunningCall>();

/** The call a statement's signal belongs to, when it was made by {@link callDeadline}. */
export function callOf(signal: AbortSignal | undefined): RunningCall | undefined {
  return signal === undefined ? undefined : calls.get(signal);
}

/** A deadline of `budgetMs` from now, joined with the caller's signal; none without a budget. */
export function callDeadline(caller: AbortSignal | undefined, budgetMs: number | undefined): CallDeadline {
  if (budgetMs === undefined) return { signal: caller, done: () => {} };
  const controller = new AbortController();
  const onCaller = () => controller.abort(caller!.reason);
  if (caller?.aborted) onCaller();
  else caller?.addEventListener('abort', onCaller, { once: true });
  const timer = setTimeout(() => controller.abort(new QueryBudgetError(budgetMs)), budgetMs);
  calls.set(controller.signal, { startedAt: performance.now(), shed: (reason) => controller.abort(reason) });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCaller);
    },
  };
}

/**
 * PostgreSQL's own statement timeout (SQLSTATE 57014 with its message; the server-side backstop
 * of the budget, or a `statement_timeout` set on the role) as the refusal the handler answers
 * with `503` and `Retry-After`; any other error unchanged.
 */
export function asBudgetError(error: unknown, budgetMs: number | undefined): unknown {
  if (sqlState(error) === '57014' && /statement timeout/.test((error as Error).message ?? '')) {
    return new QueryBudgetError(budgetMs ?? 0);
  }
  return error;
}

/** `promise`, or the signal's reason as soon as it aborts (for work shared with other calls). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
