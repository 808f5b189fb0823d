import type { IndexData } from '../engine/builder.js';
import { EncodedPaper } from '../encoded-paper.js';
import type { Paper } from '../paper.js';
import type { MemorySource } from '../scan/scan-source.js';
import type { PaperPage, PaperQuery, SourceCallOptions } from '../source.js';
import { buildIndex } from './build-index.js';
import type { AnnotationMap, PaperAnnotations } from '../annotations/annotations.js';
import type { QueryRunner } from './query-runner.js';
import { CatalogueWriter } from './catalogue-writer.js';
import { SegmentMerger } from './segment-merger.js';
import { checkChanges, deletes, upserts } from '../writes/check-changes.js';
import type { PaperChange, WriteResult } from '../writes/paper-changes.js';
import { catalogueSize, findLive, wholeSegment, type Segment } from '../segments/segment.js';
import { livePapers } from '../segments/segment-writes.js';
import { DEFAULT_MERGE_POLICY, type MergePolicy } from '../segments/merge-policy.js';

/**
 * The memory source over segments and a query runner, with nothing of Node in it: the edge
 * entry runs it with the in-thread runner, the Node entry (`indexed-memory-source.ts`) extends
 * it with threads, streams and snapshots. The catalogue is a base index plus a delta index per
 * write batch (see `segments/`), merged in the background.
 */
export class EngineSource implements MemorySource {
  protected segments: readonly Segment[];
  protected fixedVersion: string;
  /** Bumped by every replacement; a replacement that finishes after a newer one started is dropped. */
  protected generation = 0;
  private readonly writer = new CatalogueWriter({
    current: () => this.segments,
    epoch: () => this.generation,
    buildDelta: (papers, annotations, part) => this.buildDelta(papers, annotations, part),
    install: (segments, changes, deltas) => {
      this.fixedVersion = writtenVersion(this.fixedVersion, catalogueSize(segments), changes, deltas);
      this.install(segments);
      this.merger.written(changes.keys());
    },
    settled: () => (this.replacing === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.whenSettled.push(resolve))),
    replacing: () => this.replacing > 0,
    drained: () => this.merger.writesSettled(),
  });
  protected readonly merger: SegmentMerger;
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
    base: Segment,
    version: string | undefined,
    protected readonly runner: QueryRunner,
    policy: MergePolicy = {},
  ) {
    this.segments = [base];
    this.fixedVersion = version ?? versionOf(base.index);
    this.merger = new SegmentMerger(
      {
        current: () => this.segments,
        epoch: () => this.generation,
        build: (from) => this.buildMerged(from),
        install: (segments) => this.install(segments),
        failed: (error) => this.mergeFailed(error),
        writing: () => this.writer.writing,
      },
      { ...DEFAULT_MERGE_POLICY, ...policy },
    );
  }

  get size(): number {
    return catalogueSize(this.segments);
  }

  version(): string {
    return this.fixedVersion;
  }

  replace(papers: readonly Paper[], annotations?: AnnotationMap): void {
    this.swap(buildIndex(papers, annotations), ++this.generation);
  }

  /**
   * Applies `changes` in order as one atomic batch and resolves once it is visible: the batch's
   * papers become a delta index beside the others (see `CatalogueWriter`); an invalid paper
   * rejects the batch with `InvalidChangeError`.
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

  /** Whether a write batch is being applied now. */
  protected get writing(): boolean {
    return this.writer.writing;
  }

  /** Resolves once no merge of segments is under way (merges run in the background after writes). */
  merged(): Promise<void> {
    return this.merger.idle();
  }

  /** The index of (part `part` of) a write batch's papers (small: built here, on the calling thread). */
  protected async buildDelta(papers: readonly Paper[], annotations: AnnotationMap, part: number): Promise<IndexData> {
    void part;
    return buildIndex(papers, annotations, true);
  }

  /** One index of the live papers of `from`; the Node source builds it on a worker thread. */
  protected async buildMerged(from: readonly Segment[]): Promise<IndexData> {
    return buildIndex(...papersOf(from));
  }

  /** A merge that failed leaves the segments as they are; the Node source reports it. */
  protected mergeFailed(error: unknown): void {
    void error;
  }

  protected install(segments: readonly Segment[]): void {
    this.segments = segments;
    this.runner.load(segments);
  }

  protected swap(index: IndexData, generation: number, version?: string): void {
    if (generation !== this.generation) return; // a newer replacement started meanwhile
    this.install([wholeSegment(index)]);
    this.fixedVersion = version ?? versionOf(index);
  }

  async list(query: PaperQuery, options?: SourceCallOptions): Promise<PaperPage> {
    const { count, page, facets, release } = await this.runner.run(query, options?.signal);
    const { json, starts } = page;
    const results = new Array<EncodedPaper>(starts.length - 1);
    for (let i = 0; i < results.length; i++) results[i] = new EncodedPaper(undefined, json.subarray(starts[i]!, starts[i + 1]! - 1));
    // The page's buffer is this answer's own (see `PageJson`): the handler writes the body around it.
    const answer: PaperPage = { count, results, resultsJson: json, resultsJsonOwned: true };
    if (facets !== undefined) answer.facets = facets;
    if (release !== undefined) answer.release = release;
    return answer;
  }

  async get(id: string) {
    const segments = this.segments;
    const found = findLive(segments, id);
    return found === null ? null : segments[found.s]!.index.store.encoded(found.d);
  }

  async annotations(id: string): Promise<PaperAnnotations | null> {
    const segments = this.segments;
    const found = findLive(segments, id);
    return found === null ? null : (segments[found.s]!.index.annotations.get(found.d) ?? { tasks: [], methods: [] });
  }

  /** Queries waiting for a query thread, and being answered (both 0 without threads): for metrics. */
  activity(): { queued: number; running: number } {
    return { queued: this.runner.queued, running: this.runner.running };
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}

/** The live papers of segments and their tasks and methods, as `buildIndex` takes them. */
export function papersOf(from: readonly Segment[]): [Paper[], AnnotationMap] {
  const papers: Paper[] = [];
  const annotations = new Map<string, PaperAnnotations>();
  for (const { paper, annotations: notes } of livePapers(from)) {
    papers.push(paper);
    if (notes !== undefined) annotations.set(paper.id, notes);
  }
  return [papers, annotations];
}

function versionOf(index: IndexData): string {
  return `m${index.n}-${index.digest}`;
}

/**
 * The version after a write: a digest of the version before and the batch's net changes (the ids
 * it touched, whether each was deleted, and the digests of the delta indexes of the papers it
 * stores, made while those were built: hashing their JSON again here cost the thread serving
 * requests milliseconds per hundred papers), so it moves with every batch that changes
 * something (in any order of batches) without reading the catalogue; merges, which change no
 * paper, keep it.
 */
function writtenVersion(previous: string, size: number, changes: ReadonlyMap<string, Paper | null>, deltas: readonly IndexData[]): string {
  let h = 0x811c9dc5;
  const add = (text: string) => {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0xff, 0x01000193);
  };
  add(previous);
  for (const [id, paper] of changes) add(paper === null ? `-${id}` : `+${id}`);
  // One delta or none hashes as before batches could be split: versions of such writes are unchanged.
  add(deltas[0]?.digest ?? '');
  for (let i = 1; i < deltas.length; i++) add(deltas[i]!.digest);
  return `m${size}-w${(h >>> 0).toString(16).padStart(8, '0')}`;
}
