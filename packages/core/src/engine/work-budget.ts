/**
 * The time budget of the query running on this thread. The engine's long loops report the
 * work they do with {@link spend}; every {@link CHECK_EVERY} units of work (a few hundred
 * microseconds) the clock and the cancel flag are read, and a query past its deadline or
 * cancelled stops with {@link QueryInterruptedError}. Queries are synchronous, one at a time
 * per thread, so the budget is this module's state rather than a parameter of every loop.
 */

/** Why a query stopped before its end. */
export type InterruptReason = 'budget' | 'cancelled';

/** Thrown inside the engine when the running query must stop. */
export class QueryInterruptedError extends Error {
  constructor(readonly reason: InterruptReason) {
    super(reason === 'budget' ? 'paperlist: the query ran out of its time budget' : 'paperlist: the query was cancelled');
    this.name = 'QueryInterruptedError';
  }
}

/** How a query may be stopped: a deadline and, optionally, a flag another thread can raise. */
export interface WorkLimits {
  /** `performance.now()` past which the query stops; `Infinity` for none. */
  deadline: number;
  /** Stops the query when `flag[index]` equals `token` (set by the thread that asked for it). */
  cancel?: { flag: Int32Array; index: number; token: number };
}

/** Units of work between two looks at the clock. */
export const CHECK_EVERY = 1 << 17;

let deadline = Infinity;
let cancel: WorkLimits['cancel'] | undefined;
let work = 0;

/**
 * Counts `units` of work against the running query's budget (throws when it is spent). Long
 * loops also call it every few thousand steps (`spend(0)` counts a step's share), so that a
 * query stops within a few milliseconds of its deadline.
 */
export function spend(units: number): void {
  work += units + 4096;
  if (work >= CHECK_EVERY) {
    work = 0;
    checkLimits();
  }
}

/** Looks at the clock and the cancel flag now. */
export function checkLimits(): void {
  if (cancel !== undefined && Atomics.load(cancel.flag, cancel.index) === cancel.token) throw new QueryInterruptedError('cancelled');
  if (deadline !== Infinity && performance.now() > deadline) throw new QueryInterruptedError('budget');
}

/** Runs `query` under `limits`; the limits are lifted afterwards, however it ends. */
export function withLimits<T>(limits: WorkLimits, query: () => T): T {
  deadline = limits.deadline;
  cancel = limits.cancel;
  work = 0;
  try {
    checkLimits();
    return query();
  } finally {
    deadline = Infinity;
    cancel = undefined;
  }
}
