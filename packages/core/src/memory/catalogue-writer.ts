import type { IndexData } from '../engine/builder.js';
import { serializePaper, type Paper } from '../paper.js';
import { netChanges, papersAfter } from '../writes/apply-changes.js';
import type { PaperChange, WriteResult } from '../writes/paper-changes.js';

/** What the writer needs of the source it writes to. */
export interface WriteTarget {
  /** The index being served now. */
  current(): IndexData;
  /** A new index of `papers` (on a worker thread where there is one). */
  build(papers: Iterable<Paper>, base: IndexData): Promise<IndexData>;
  /** Serves `index` from now on, unless the catalogue was replaced since `base` was current: then answers false. */
  install(index: IndexData, base: IndexData): boolean;
  /** Resolves when no replacement of the catalogue is under way. */
  settled(): Promise<void>;
}

interface Pending {
  changes: readonly PaperChange[];
  resolve(result: WriteResult): void;
  reject(error: unknown): void;
}

/**
 * Applies write batches to the memory source by building the next index aside from the current
 * one's papers with the changes, then swapping it in, so every request sees the catalogue wholly
 * before or wholly after a batch. Batches that arrive during a build are applied together by the
 * next one (each still atomic, in arrival order), so a stream of small writes costs one build at a
 * time, not one each. A catalogue replaced during a build is not overwritten: the changes are
 * applied again on top of the replacement.
 */
export class CatalogueWriter {
  private queue: Pending[] = [];
  private running = false;

  constructor(private readonly target: WriteTarget) {}

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
    }
  }

  /** Builds and installs the catalogue after `batches`, again if it was replaced meanwhile. */
  private async apply(batches: readonly Pending[]): Promise<WriteResult[]> {
    for (;;) {
      const base = this.target.current();
      const { store } = base;
      const combined = new Map<string, Paper | null>();
      const results = batches.map((batch) => {
        const has = (id: string) => (combined.has(id) ? combined.get(id) !== null : store.findId(id) >= 0);
        const { final, result } = netChanges(batch.changes, has);
        for (const [id, paper] of final) combined.set(id, paper);
        return result;
      });
      dropUnchanged(combined, base);
      // Nothing to change (deletes of absent ids, papers stored as they are): no new index.
      if (combined.size === 0) return results;
      const index = await this.target.build(papersAfter(papersOf(base), combined), base);
      if (this.target.install(index, base)) return results;
      await this.target.settled();
    }
  }
}

/** Removes the entries that leave the catalogue as it is: deletes of absent ids, upserts of papers stored as they are. */
function dropUnchanged(combined: Map<string, Paper | null>, base: IndexData): void {
  const { store } = base;
  for (const [id, paper] of combined) {
    const d = store.findId(id);
    if (paper === null ? d < 0 : d >= 0 && sameBytes(store.encoded(d).json, utf8.encode(serializePaper(paper)))) combined.delete(id);
  }
}

const utf8 = new TextEncoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The papers of an index, in document order, decoded from its store one at a time. */
function* papersOf(index: IndexData): Generator<Paper> {
  for (let d = 0; d < index.n; d++) yield index.store.encoded(d).toPaper();
}
