import { SourceOverloadedError } from '@paperlist/core';
import type { RunningCall } from './statement-timeout.js';

/** Limits of {@link ConnectionGate}. */
export interface GateLimits {
  /** Statements that may hold a connection at once (the pool's size). */
  concurrent: number;
  /** Statements that may wait for a connection; one more is refused at once. */
  queued: number;
  /** Longest a statement waits for a connection before it is refused. */
  waitMs: number;
  /**
   * While statements wait, a call that has run this long (milliseconds since it started) and
   * holds a connection is shed: refused with {@link SourceOverloadedError}, its statement
   * cancelled, so its connection goes to the oldest waiter. One call per waiter, oldest first.
   * `undefined`: never.
   */
  shedAfterMs?: number | undefined;
}

interface Waiter {
  admit(): void;
  refuse(error: unknown): void;
}

/** A held connection slot, and the call holding it (when the statement belongs to one). */
interface Holder {
  call: RunningCall | undefined;
  shed: boolean;
}

/**
 * A bounded wait for the read pool's connections. `pg.Pool` queues every caller without limit:
 * when slow searches hold every connection, each new request waits behind them and answers late
 * (or times out only after its whole budget). The gate lets at most `concurrent` statements
 * hold a connection, at most `queued` wait (first come, first served), each for at most
 * `waitMs`; past either bound the statement is refused with {@link SourceOverloadedError}
 * (`503`, code `source-busy`, with `Retry-After`) at once, so an overloaded server says so
 * quickly instead of queueing without bound.
 *
 * With `shedAfterMs`, slow calls cannot keep the pool either: while anyone waits, the oldest
 * call holding a connection for longer than that is refused (`source-busy`) and its statement
 * cancelled, so the connection passes to a waiter. A query that needs more than `shedAfterMs`
 * then runs to the end of its budget only while nobody else needs its connection.
 */
export class ConnectionGate {
  private readonly holders = new Set<Holder>();
  private readonly waiting: Waiter[] = [];
  private shedding = 0;
  private shedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly limits: GateLimits) {}

  /** Waits for a slot; resolves to the function that gives it back (call it exactly once). */
  enter(signal: AbortSignal | undefined, call?: RunningCall): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.holders.size < this.limits.concurrent) return Promise.resolve(this.hold(call));
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
          resolve(this.hold(call));
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
      this.shedOldest();
    });
  }

  /** Statements holding a connection, and waiting for one. */
  get load(): { active: number; waiting: number } {
    return { active: this.holders.size, waiting: this.waiting.length };
  }

  private hold(call: RunningCall | undefined): () => void {
    const holder: Holder = { call, shed: false };
    this.holders.add(holder);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.holders.delete(holder);
      if (holder.shed) this.shedding--;
      // The slot passes straight to the first waiter.
      this.waiting[0]?.admit();
    };
  }

  /**
   * Sheds the oldest calls old enough while more statements wait than calls are being shed;
   * when none is old enough yet, looks again when the oldest will be.
   */
  private shedOldest(): void {
    const after = this.limits.shedAfterMs;
    if (after === undefined) return;
    clearTimeout(this.shedTimer);
    this.shedTimer = undefined;
    while (this.waiting.length > this.shedding) {
      let oldest: Holder | undefined;
      for (const holder of this.holders) {
        if (holder.shed || holder.call === undefined) continue;
        if (oldest === undefined || holder.call.startedAt < oldest.call!.startedAt) oldest = holder;
      }
      if (oldest === undefined) return;
      const age = performance.now() - oldest.call!.startedAt;
      if (age < after) {
        this.shedTimer = setTimeout(() => this.shedOldest(), Math.ceil(after - age));
        this.shedTimer.unref?.();
        return;
      }
      // Every statement of that call holding a slot is marked, so none of them is shed twice.
      for (const holder of this.holders) {
        if (holder.call === oldest.call && !holder.shed) {
          holder.shed = true;
          this.shedding++;
        }
      }
      oldest.call!.shed(new SourceOverloadedError(this.waiting.length));
    }
  }
}
