import type { AnnotationMap } from '../annotations/annotations.js';
import type { IndexData } from '../engine/builder.js';
import type { Paper } from '../paper.js';
import { liveFinder, type LiveFinder, type Segment } from '../segments/segment.js';
import { deltaPapers, dropUnchanged, segmentsAfter } from '../segments/segment-writes.js';
import { deltaParts } from '../segments/delta-split.js';
import { netChanges } from '../writes/apply-changes.js';
import type { PaperChange, WriteResult } from '../writes/paper-changes.js';

/** What the writer needs of the source it writes to. */
export interface WriteTarget {
  /** The segments being served now. */
  current(): readonly Segment[];
  /** Counts replacements of the whole catalogue: a write whose batch was read before one is applied again after it. */
  epoch(): number;
  /** The index of part `part` of a batch's stored papers (see `deltaParts`); the parts are asked for at once. */
  buildDelta(papers: readonly Paper[], annotations: AnnotationMap, part: number): Promise<IndexData>;
  /** Serves `segments` from now on (after the batch with these net changes, whose stored papers `deltas` index, in order). */
  install(segments: readonly Segment[], changes: ReadonlyMap<string, Paper | null>, deltas: readonly IndexData[]): void;
  /** Resolves when no replacement of the catalogue is under way. */
  settled(): Promise<void>;
  /** Whether a replacement is under way. */
  replacing(): boolean;
  /** Called when the writer has applied every batch submitted to it (background merges wait for that). */
  drained(): void;
}

interface Pending {
  changes: readonly PaperChange[];
  resolve(result: WriteResult): void;
  reject(error: unknown): void;
}

/**
 * Applies write batches to the memory source as segments: a batch's stored papers become one
 * small delta index, and the current copy of every id it touches is masked out of its segment
 * (see `segmentsAfter`); the new segments are then served at once, so a request sees the
 * catalogue wholly before or wholly after a batch. The cost is the batch's own papers, not the
 * catalogue's. Batches that arrive while one is applied are applied together by the next
 * (each still atomic, counted in arrival order). A catalogue replaced during a write is not
 * overwritten: the changes are applied again on top of the replacement.
 */
export class CatalogueWriter {
  private queue: Pending[] = [];
  private running = false;

  constructor(private readonly target: WriteTarget) {}

  /** Whether a batch is being applied (or waits to be) now. */
  get writing(): boolean {
    return this.running;
  }

  /** Applies `changes` as one batch; resolves with its counts once it is being served. */
  submit(changes: readonly PaperChange[]): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      this.queue.push({ changes, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batches = this.queue;
        this.queue = [];
        try {
          const results = await this.apply(batches);
          batches.forEach((batch, i) => batch.resolve(results[i]!));
        } catch (error) {
          for (const batch of batches) batch.reject(error);
        }
      }
    } finally {
      this.running = false;
      this.target.drained();
    }
  }

  /** Builds the batches' delta and installs it, again if the catalogue was replaced meanwhile. */
  private async apply(batches: readonly Pending[]): Promise<WriteResult[]> {
    for (;;) {
      if (this.target.replacing()) await this.target.settled();
      const epoch = this.target.epoch();
      const segments = this.target.current();
      const { results, combined, papers, annotations, find } = planWrite(batches.map((batch) => batch.changes), segments);
      // Nothing to change (deletes of absent ids, papers stored as they are): no new segments.
      if (combined.size === 0) return results;
      const deltas = await Promise.all(deltaParts(papers).map((part, i) => this.target.buildDelta(part, annotations, i)));
      // The catalogue was replaced while the delta was built (or is being replaced): apply the batches on top of the replacement.
      if (this.target.epoch() !== epoch || this.target.replacing()) continue;
      // Merges finished meanwhile change segments, never their papers: the copies to mask are then found again.
      const now = this.target.current();
      this.target.install(segmentsAfter(now, combined, deltas, now === segments ? find : liveFinder(now)), combined, deltas);
      return results;
    }
  }
}

/** What batches of changes do to a catalogue of segments, worked out before their delta is built. */
export interface WritePlan {
  /** Each batch's counts, each counted against the catalogue as the batches before it left it. */
  results: WriteResult[];
  /** The net change of every id touched (`null`: deleted), papers stored as they are left out. */
  combined: Map<string, Paper | null>;
  /** The papers the delta stores, in the order first written, with the tasks and methods they keep. */
  papers: Paper[];
  annotations: AnnotationMap;
  /** Where each id's live copy is in `segments` (remembered: the mask after the build asks again). */
  find: LiveFinder;
}

/**
 * The part of applying batches that runs on the thread serving requests before the delta is
 * built (see `CatalogueWriter`); it changes nothing, so a source can also run it on made-up
 * batches to warm its code up (`write-path-warm-up.ts`).
 */
export function planWrite(batches: readonly (readonly PaperChange[])[], segments: readonly Segment[]): WritePlan {
  const find = liveFinder(segments);
  const combined = new Map<string, Paper | null>();
  const results = batches.map((changes) => {
    const has = (id: string) => (combined.has(id) ? combined.get(id) !== null : find(id) !== null);
    const { final, result } = netChanges(changes, has);
    for (const [id, paper] of final) combined.set(id, paper);
    return result;
  });
  dropUnchanged(combined, segments, find);
  const { papers, annotations } = deltaPapers(combined, segments, find);
  return { results, combined, papers, annotations, find };
}
