import type { IndexData } from '../engine/builder.js';
import { EncodedPaper } from '../encoded-paper.js';
import type { Paper } from '../paper.js';
import type { MemorySource } from '../scan/scan-source.js';
import type { PaperPage, PaperQuery, SourceCallOptions } from '../source.js';
import { buildIndex } from './build-index.js';
import { annotationMapOf } from '../engine/annotation-store.js';
import type { AnnotationMap, PaperAnnotations } from '../annotations/annotations.js';
import type { QueryRunner } from './query-runner.js';
import { CatalogueWriter } from './catalogue-writer.js';
import { checkChanges, deletes, upserts } from '../writes/check-changes.js';
import type { PaperChange, WriteResult } from '../writes/paper-changes.js';

/**
 * The memory source over an index and a query runner, with nothing of Node in it: the edge
 * entry runs it with the in-thread runner, the Node entry (`indexed-memory-source.ts`) extends
 * it with threads, streams and snapshots.
 */
export class EngineSource implements MemorySource {
  protected index: IndexData;
  protected fixedVersion: string;
  /** Bumped by every replacement; a replacement that finishes after a newer one started is dropped. */
  protected generation = 0;
  private readonly writer = new CatalogueWriter({
    current: () => this.index,
    // A paper keeps its tasks and methods through writes (by id); a deleted one loses them.
    build: (papers, base) => this.buildForWrite(papers, annotationMapOf(base.annotations, (d) => base.store.encoded(d).id)),
    install: (index, base) => {
      // A replacement that started after the write's base was read wins over the write.
      if (this.index !== base || this.replacing > 0) return false;
      this.swap(index, ++this.generation);
      return true;
    },
    settled: () => (this.replacing === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.whenSettled.push(resolve))),
  });
  /** Replacements (`replaceFrom`, `restore`) under way: a write finishing meanwhile is applied again after them. */
  private replacing = 0;
  private whenSettled: (() => void)[] = [];

  /** Runs a replacement of the whole catalogue, so that writes finishing meanwhile wait for it. */
  protected async replacement<T>(run: () => Promise<T>): Promise<T> {
    this.replacing++;
    try {
      return await run();
    } finally {
      if (--this.replacing === 0) for (const resolve of this.whenSettled.splice(0)) resolve();
    }
  }

  constructor(
    index: IndexData,
    version: string | undefined,
    protected readonly runner: QueryRunner,
  ) {
    this.index = index;
    this.fixedVersion = version ?? versionOf(index);
  }

  get size(): number {
    return this.index.n;
  }

  version(): string {
    return this.fixedVersion;
  }

  replace(papers: readonly Paper[], annotations?: AnnotationMap): void {
    this.swap(buildIndex(papers, annotations), ++this.generation);
  }

  /**
   * Applies `changes` in order as one atomic batch and resolves once it is visible. The next
   * index is built from the current papers and the changes, then swapped in (see
   * `CatalogueWriter`); an invalid paper rejects the batch with `InvalidChangeError`.
   */
  async write(changes: readonly PaperChange[]): Promise<WriteResult> {
    checkChanges(changes);
    return this.writer.submit(changes);
  }

  upsert(papers: readonly Paper[]): Promise<WriteResult> {
    return this.write(upserts(papers));
  }

  remove(ids: readonly string[]): Promise<WriteResult> {
    return this.write(deletes(ids));
  }

  /** Builds the index a write leads to; the Node source builds it on a worker thread. */
  protected async buildForWrite(papers: Iterable<Paper>, annotations: AnnotationMap): Promise<IndexData> {
    return buildIndex([...papers], annotations);
  }

  protected swap(index: IndexData, generation: number, version?: string): void {
    if (generation !== this.generation) return; // a newer replacement started meanwhile
    this.index = index;
    this.runner.load(index);
    this.fixedVersion = version ?? versionOf(index);
  }

  async list(query: PaperQuery, options?: SourceCallOptions): Promise<PaperPage> {
    const { count, page, facets } = await this.runner.run(query, options?.signal);
    const { json, starts, ids } = page;
    const results = new Array<EncodedPaper>(ids.length);
    for (let i = 0; i < ids.length; i++) results[i] = new EncodedPaper(ids[i]!, json.subarray(starts[i]!, starts[i + 1]! - 1));
    return facets === undefined ? { count, results, resultsJson: json } : { count, results, resultsJson: json, facets };
  }

  async get(id: string) {
    const index = this.index;
    const d = index.store.findId(id);
    return d < 0 ? null : index.store.encoded(d);
  }

  async annotations(id: string): Promise<PaperAnnotations | null> {
    const index = this.index;
    const d = index.store.findId(id);
    return d < 0 ? null : (index.annotations.get(d) ?? { tasks: [], methods: [] });
  }

  /** Queries waiting for a query thread, and being answered (both 0 without threads): for metrics. */
  activity(): { queued: number; running: number } {
    return { queued: this.runner.queued, running: this.runner.running };
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}

function versionOf(index: IndexData): string {
  return `m${index.n}-${index.digest}`;
}
