import type { IndexData } from '../engine/builder.js';
import { nextMerge, type MergePolicy } from '../segments/merge-policy.js';
import type { Segment } from '../segments/segment.js';
import { segmentsWithMerge } from '../segments/segment-writes.js';

/** What the merger needs of the source whose segments it folds together. */
export interface MergeTarget {
  /** The segments being served now. */
  current(): readonly Segment[];
  /** Counts replacements of the whole catalogue: a merge started before one is dropped. */
  epoch(): number;
  /** One index of the live papers of `from` (on a worker thread where there is one). */
  build(from: readonly Segment[]): Promise<IndexData>;
  /** Serves `segments` from now on: the same papers, fewer segments. */
  install(segments: readonly Segment[]): void;
  /** A merge failed: the segments stay as they are (and are merged again after the next write). */
  failed(error: unknown): void;
  /** Whether a write batch is being applied now (merges then wait for it, see {@link SegmentMerger.written}). */
  writing(): boolean;
}

/**
 * Merges under way at most. During a stream of small batches, merges of the newest deltas
 * (at the lowest priority, so slow while queries run) were started faster than they ended:
 * each more was a thread, its code compiled again, all of it CPU the queries needed. Past
 * this many, the next merge is planned when one ends, over the segments as they are then
 * (a larger tier, the same work in fewer merges). `MergeThreads` keeps as many threads.
 */
export const MAX_MERGES_AT_ONCE = 2;

/** Past this many times `maxDeltas` deltas, a merge starts even while writes are being applied. */
export const MERGE_ANYWAY_PAST = 2;

interface Running {
  from: readonly Segment[];
  ids: ReadonlySet<number>;
  /** Ids written since the merge started: their copies in the merged index are masked out. */
  touched: string[];
  epoch: number;
}

/**
 * Folds a memory source's segments together in the background, as `nextMerge` decides: the
 * merged index is built from the live papers of a run of segments (aside, while queries and
 * writes go on), then put in place of them with the papers written meanwhile masked out
 * (`segmentsWithMerge`), so no write is lost and answers never change. Merges of disjoint runs
 * may overlap (the newest deltas keep being merged while the base is rebuilt).
 */
export class SegmentMerger {
  private readonly running = new Set<Running>();
  private waiting: (() => void)[] = [];
  /** Merges are to be considered once no write is being applied (see {@link written}). */
  private due = false;
  /** A turn of the event loop is booked to consider them. */
  private planned = false;

  constructor(
    private readonly target: MergeTarget,
    private readonly policy: Required<MergePolicy>,
  ) {}

  /**
   * After a write batch was installed: the ids it touched; then starts a merge if one is due,
   * on a later turn of the event loop and once no write is being applied. Starting one sends
   * the segments' parts to a merge thread (up to 18 ms of this thread at 1M papers), and the
   * merge's first reads and compiles take the cores the next batch's delta threads need: at 1M
   * papers, the batch of 1,000 written right after the one that called for a merge was the
   * slowest of the write benchmark's six (110–175 ms). Writes that never pause still get
   * merges once the deltas are {@link MERGE_ANYWAY_PAST} times the policy's `maxDeltas`.
   */
  written(ids: Iterable<string>): void {
    if (this.running.size > 0) {
      const list = [...ids];
      for (const merge of this.running) merge.touched.push(...list);
    }
    this.due = true;
    this.plan();
  }

  /** The writer has no batch left to apply: merges held back by writes may start. */
  writesSettled(): void {
    if (this.due) this.plan();
  }

  private plan(): void {
    if (this.planned) return;
    this.planned = true;
    setTimeout(() => {
      this.planned = false;
      const deltas = this.target.current().length - 1;
      // Still writing: `writesSettled` plans again, unless the deltas pile up.
      if (this.target.writing() && deltas <= MERGE_ANYWAY_PAST * this.policy.maxDeltas) return;
      this.due = false;
      this.consider();
      this.settle();
    }, 0);
  }

  /** Resolves once no merge is under way nor about to start (for `save` and tests). */
  idle(): Promise<void> {
    return this.running.size === 0 && !this.due ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Resolves the waiters of {@link idle} when no merge is under way or due. */
  private settle(): void {
    if (this.running.size === 0 && !this.due) for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Starts every merge the policy asks for now, up to {@link MAX_MERGES_AT_ONCE} under way. */
  private consider(): void {
    while (this.running.size < MAX_MERGES_AT_ONCE) {
      const segments = this.target.current();
      const busy = (segment: Segment) => [...this.running].some((merge) => merge.ids.has(segment.id));
      const range = nextMerge(segments, busy, this.policy);
      if (range === null) return;
      const from = segments.slice(range[0], range[1]);
      const merge: Running = { from, ids: new Set(from.map((segment) => segment.id)), touched: [], epoch: this.target.epoch() };
      this.running.add(merge);
      void this.run(merge);
    }
  }

  private async run(merge: Running): Promise<void> {
    let installed = false;
    try {
      const index = await this.target.build(merge.from);
      if (this.target.epoch() === merge.epoch) {
        const next = segmentsWithMerge(this.target.current(), merge.from, index, merge.touched);
        if (next !== null) {
          this.target.install(next);
          installed = true;
        }
      }
    } catch (error) {
      this.target.failed(error);
    } finally {
      this.running.delete(merge);
      // After a failed or dropped merge the next write plans again (a failure is not retried in a loop).
      if (installed) this.consider();
      this.settle();
    }
  }
}
