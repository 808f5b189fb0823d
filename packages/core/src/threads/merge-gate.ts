/**
 * Background merges give way to write batches. A batch waits for its delta index (two threads
 * building halves of it on two cores); a merge running meanwhile, although at the lowest
 * priority, still made V8's helper threads (garbage collection and optimizing compiles, shared
 * by every thread of the process and running at the event loop's priority) work for it, and
 * took memory bandwidth and caches: at 1M papers a batch of 1,000 upserts was visible after a
 * median of about 100 ms with merges running, 55 ms without. So a write holds the gate while it is
 * applied, and a merge thread stops at its next checkpoint (between a few hundred papers read,
 * and between the phases of its finish) until no write holds it.
 */

/** The longest a merge waits at one checkpoint: writes back to back must not stop merges for good. */
export const MAX_MERGE_PAUSE_MS = 500;

/** The gate as its owner (the memory source) holds it; merge threads get {@link MergeGate.buffer}. */
export class MergeGate {
  /** Shared with the merge threads: the number of writes under way. */
  readonly buffer = new SharedArrayBuffer(4);
  private readonly held = new Int32Array(this.buffer);

  /** Runs `work` with the gate held: merges pause at their next checkpoint until it settles. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    Atomics.add(this.held, 0, 1);
    try {
      return await work();
    } finally {
      if (Atomics.sub(this.held, 0, 1) === 1) Atomics.notify(this.held, 0);
    }
  }
}

/**
 * A merge thread's checkpoint: returns at once when no write holds the gate, else when the last
 * lets go of it, or after `limitMs` at most.
 */
export function passMergeGate(gate: Int32Array, limitMs = MAX_MERGE_PAUSE_MS): void {
  const until = performance.now() + limitMs;
  for (;;) {
    const writes = Atomics.load(gate, 0);
    const left = until - performance.now();
    if (writes === 0 || left <= 0) return;
    Atomics.wait(gate, 0, writes, left);
  }
}
