import { SourceOverloadedError } from '@paperlist/core';

/** Limits of {@link ConnectionGate}. */
export interface GateLimits {
  /** Statements that may hold a connection at once (the pool's size). */
  concurrent: number;
  /** Statements that may wait for a connection; one more is refused at once. */
  queued: number;
  /** Longest a statement waits for a connection before it is refused. */
  waitMs: number;
}

interface Waiter {
  admit(): void;
  refuse(error: unknown): void;
}

/**
 * A bounded wait for the read pool's connections. `pg.Pool` queues every caller without limit:
 * when slow searches hold every connection, each new request waits behind them and answers late
 * (or times out only after its whole budget). The gate lets at most `concurrent` statements
 * hold a connection, at most `queued` wait (first come, first served), each for at most
 * `waitMs`; past either bound the statement is refused with {@link SourceOverloadedError}
 * (`503`, code `source-busy`, with `Retry-After`) at once, so an overloaded server says so
 * quickly instead of queueing without bound.
 */
export class ConnectionGate {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(readonly limits: GateLimits) {}

  /** Waits for a slot; resolves to the function that gives it back (call it exactly once). */
  enter(signal: AbortSignal | undefined): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active < this.limits.concurrent) {
      this.active++;
      return Promise.resolve(this.leaver());
    }
    if (this.waiting.length >= this.limits.queued) return Promise.reject(new SourceOverloadedError(this.waiting.length));
    return new Promise<() => void>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
      };
      const waiter: Waiter = {
        admit: () => {
          settle();
          resolve(this.leaver());
        },
        refuse: (error) => {
          settle();
          reject(error as Error);
        },
      };
      const timer = setTimeout(() => waiter.refuse(new SourceOverloadedError(this.waiting.length)), this.limits.waitMs);
      const onAbort = () => waiter.refuse(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Statements holding a connection, and waiting for one. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  private leaver(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      // The slot passes straight to the first waiter (the count of active slots is unchanged).
      const next = this.waiting[0];
      if (next) next.admit();
      else this.active--;
    };
  }
}
