import type { IndexData } from '../engine/builder.js';
import { indexFromParts, indexParts } from '../engine/index-parts.js';
import { PaperlistOptionsError } from '../http/handler-options.js';
import type { ReadPapersOptions } from '../load/types.js';
import type { Paper } from '../paper.js';
import type { AnnotationMap } from '../annotations/annotations.js';
import type { MemorySource } from '../scan/scan-source.js';
import { readSnapshot, writeSnapshot } from '../snapshot/snapshot-file.js';
import { EnginePool } from '../threads/engine-pool.js';
import { buildFrom, type PaperStream } from './build-from-stream.js';
import { resolveBuildThreads } from './parallel-build.js';
import { DeltaBuilder } from './build-on-thread.js';
import { warmUpRounds } from '../threads/builder-warm-up.js';
import { warmUpWritePath } from './write-path-warm-up.js';
import { deltaParts } from '../segments/delta-split.js';
import { MergeThreads } from './merge-threads.js';
import { MAX_MERGES_AT_ONCE } from './segment-merger.js';
import { MergeGate } from '../threads/merge-gate.js';
import type { PaperChange, WriteResult } from '../writes/paper-changes.js';
import { wholeSegment, type Segment } from '../segments/segment.js';
import { buildIndex } from './build-index.js';
import { EngineSource } from './engine-source.js';
import type { MergePolicy } from '../segments/merge-policy.js';
import { resolveBudget, resolveMergePolicy, type MemorySourceOptions } from './memory-source.js';
import { InThreadRunner, type QueryRunner } from './query-runner.js';

/*
 * The memory source as Node runs it (exported by `@paperlist/core/node`): the edge entry's
 * `EngineSource` plus query threads (`worker_threads`), catalogues streamed from files and
 * built on a thread, and snapshots on disk. Nothing here may be imported by the edge entry.
 */

export type { PaperStream };

/** Options of `createMemorySource` from `@paperlist/core/node`: those of the edge entry's, plus threads. */
export interface NodeMemorySourceOptions extends MemorySourceOptions {
  /**
   * Worker threads that answer queries, sharing one copy of the index: the calling thread
   * (the one that accepts connections) then never runs a query, and one process uses every
   * core. `0` answers on the calling thread. Default 0; `paperlist serve` uses one per core.
   */
  threads?: number;
  /**
   * With threads: queries that may wait for a free thread. When that many wait, the next is
   * refused at once with `SourceOverloadedError` (`503`). Default 256.
   */
  maxQueue?: number;
}

/** Options of {@link createMemorySourceFromStream} and {@link IndexedMemorySource.replaceFrom}. */
export interface MemoryStreamOptions extends NodeMemorySourceOptions {
  /** How a file or byte stream is read (ignored for papers): progress, `skipInvalid`, abort signal. */
  read?: ReadPapersOptions;
  /**
   * Threads that build the index from a stream (an array is indexed on the calling thread):
   * 1, the building thread alone, or 2, which tokenizes the papers on a second thread at the
   * same time (a third of the time on two cores; the index is the same). Default: 2 when the
   * machine has two CPUs or more, else 1.
   */
  buildThreads?: number;
}

/** The in-memory source on Node: a {@link MemorySource} that can also be streamed into, saved, restored and closed. */
export interface IndexedMemorySource extends MemorySource {
  /**
   * Builds a new catalogue from a stream aside, then swaps it in atomically; requests keep
   * being answered from the old one meanwhile. If several replacements overlap, the one
   * started last wins. On error the current catalogue stays.
   */
  replaceFrom(input: PaperStream, options?: Pick<MemoryStreamOptions, 'read' | 'version' | 'annotations' | 'buildThreads'>): Promise<void>;
  /**
   * Writes the whole source (index, papers, version) to one file, atomically (a temporary file
   * beside it, flushed, then renamed): {@link openMemorySource} loads it in seconds.
   */
  save(path: string): Promise<void>;
  /**
   * Replaces the catalogue with the one saved at `path` (by {@link save}), swapped in atomically
   * like {@link replaceFrom}, with the version it was saved with. On error (a missing, damaged or
   * other-version file: `SnapshotError`) the current catalogue stays.
   */
  restore(path: string): Promise<void>;
  /** Queries waiting for a query thread, and being answered (both 0 without threads): for metrics. */
  activity(): { queued: number; running: number };
  /**
   * Resolves once no background merge of the writes' segments is under way (see
   * docs/writes.md). Answers never depend on it: for tests and benchmarks.
   */
  merged(): Promise<void>;
  /** Stops the query threads (if any). Queries still waiting are refused; the source answers no more. */
  close(): Promise<void>;
}

/**
 * A base of this many papers or more gets a merge thread started (and warmed up) with the
 * source, and the write path of the thread serving requests warmed up. A smaller catalogue's
 * writes and merges are short, and its source often made and closed many times (tests, demos):
 * it starts a merge thread with its first merge.
 */
const WARM_START_FROM = 50_000;

/** Made-up batches run through the write path of a large source when it starts (see `warmUpWritePath`), and of them sent to the delta threads. */
const WRITE_WARM_UP_ROUNDS = 20;
const WRITE_WARM_UP_THROUGH_THREADS = 3;

/** Default of {@link NodeMemorySourceOptions.maxQueue}. */
export const DEFAULT_MAX_QUEUE = 256;

/**
 * paperlist's default source on Node: the edge entry's `createMemorySource` (the same index and
 * answers) with query threads and the methods of {@link IndexedMemorySource}.
 *
 * @example
 * import { createMemorySource } from '@paperlist/core/node';
 * const source = createMemorySource(await loadSamplePapers(), { threads: 2 });
 */
export function createMemorySource(papers: readonly Paper[], options: NodeMemorySourceOptions = {}): IndexedMemorySource {
  const runnerOptions = resolveRunnerOptions(options);
  return new NodeEngineSource(buildIndex(papers, options.annotations), options.version, runnerOptions);
}

/**
 * The in-memory source built from a stream, for catalogues too large to hold as objects:
 * papers are indexed as they are read, and only their JSON and the index are kept.
 *
 * @example
 * const source = await createMemorySourceFromStream('papers.jsonl.gz');
 */
export async function createMemorySourceFromStream(input: PaperStream, options: MemoryStreamOptions = {}): Promise<IndexedMemorySource> {
  const runnerOptions = resolveRunnerOptions(options);
  const buildThreads = resolveBuildThreads(options.buildThreads);
  return new NodeEngineSource(await buildFrom(input, options.read, options.annotations, buildThreads), options.version, runnerOptions);
}

/**
 * The memory source saved by {@link IndexedMemorySource.save}: loaded as it was written, without
 * rebuilding (the file's layout version and checksums are checked first).
 * @throws {SnapshotError} naming the file when it is not a snapshot, is truncated or corrupted,
 * or was written by an incompatible version.
 *
 * @example
 * await source.save('catalogue.snapshot');
 * const again = await openMemorySource('catalogue.snapshot', { threads: 2 });
 */
export async function openMemorySource(path: string, options: Omit<NodeMemorySourceOptions, 'version'> = {}): Promise<IndexedMemorySource> {
  const runnerOptions = resolveRunnerOptions(options);
  const { parts, meta } = await readSnapshot(path);
  return new NodeEngineSource(indexFromParts(parts), meta['version'], runnerOptions);
}

interface RunnerOptions {
  threads: number;
  budgetMs: number;
  maxQueue: number;
  merges: MergePolicy | undefined;
}

function resolveRunnerOptions(options: NodeMemorySourceOptions): RunnerOptions {
  const { threads = 0, maxQueue = DEFAULT_MAX_QUEUE } = options;
  if (!Number.isSafeInteger(threads) || threads < 0) {
    throw new PaperlistOptionsError('threads', `paperlist: \`threads\` must be a whole number (0 for none), got ${String(threads)}.`);
  }
  const budgetMs = resolveBudget(options.budgetMs);
  if (!Number.isSafeInteger(maxQueue) || maxQueue < 0) {
    throw new PaperlistOptionsError('maxQueue', `paperlist: \`maxQueue\` must be a whole number, got ${String(maxQueue)}.`);
  }
  return { threads, budgetMs, maxQueue, merges: resolveMergePolicy(options.merges) };
}

function runnerFor(segments: readonly Segment[], options: RunnerOptions): QueryRunner {
  return options.threads > 0 ? new EnginePool(segments, options) : new InThreadRunner(segments, options.budgetMs);
}

class NodeEngineSource extends EngineSource implements IndexedMemorySource {
  constructor(index: IndexData, version: string | undefined, options: RunnerOptions) {
    const base = wholeSegment(index);
    super(base, version, runnerFor([base], options), options.merges);
    // A source serving from query threads starts its delta threads too, so that the first write does not wait for them; they warm up on the base's papers, one after the other.
    if (options.threads > 0) {
      const [first, second] = this.deltas;
      const warmed = second.start(indexParts(base.index), first.start(indexParts(base.index)));
      // A large catalogue's first merge gets a thread started and warmed up after them (see
      // `MergeThreads.start`), and this thread's part of a write is warmed up too.
      if (base.index.n >= WARM_START_FROM) {
        this.mergeThreads.start(indexParts(base.index), warmUpRounds(base.index.n), warmed);
        void warmed.then(() => this.warmUpWrites(WRITE_WARM_UP_ROUNDS)).catch(() => undefined);
      }
    }
  }

  /**
   * Rounds of `warmUpWritePath`, one per turn of the event loop, skipped while a write is
   * applied; the last ones are batches of 1,000 whose delta halves go to the delta threads as a
   * write's do (and are dropped), so that the messages' way is warm as well.
   */
  private async warmUpWrites(rounds: number): Promise<void> {
    for (let round = 0; round < rounds && !this.closed; round++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.writing) continue;
      const whole = round >= rounds - WRITE_WARM_UP_THROUGH_THREADS;
      const plan = warmUpWritePath(this.segments, round, whole ? 1000 : 300);
      if (plan !== null && whole) await Promise.all(deltaParts(plan.papers).map((part, i) => this.buildDelta(part, plan.annotations, i)));
    }
  }

  replaceFrom(input: PaperStream, options: Pick<MemoryStreamOptions, 'read' | 'version' | 'annotations' | 'buildThreads'> = {}): Promise<void> {
    return this.replacement(async () => {
      const buildThreads = resolveBuildThreads(options.buildThreads);
      const generation = ++this.generation;
      const index = await buildFrom(input, options.read, options.annotations, buildThreads);
      this.swap(index, generation, options.version);
    });
  }

  restore(path: string): Promise<void> {
    return this.replacement(async () => {
      const generation = ++this.generation;
      const { parts, meta } = await readSnapshot(path);
      this.swap(indexFromParts(parts), generation, meta['version']);
    });
  }

  /** One delta thread per part of a batch (see `deltaParts`): a large batch's two halves are built at the same time. */
  private readonly deltas = [new DeltaBuilder(), new DeltaBuilder()] as const;

  /** A batch's delta index is built on a thread kept for them: the thread serving requests only sends the papers. */
  protected override buildDelta(papers: readonly Paper[], annotations: AnnotationMap, part: number): Promise<IndexData> {
    return this.deltas[part % this.deltas.length]!.build(papers, annotations);
  }

  /** Held by every write while it is applied: merges pause meanwhile (see `MergeGate`). */
  private readonly mergeGate = new MergeGate();

  /** Threads that build merged indexes, kept between merges (see `MergeThreads`). */
  private readonly mergeThreads = new MergeThreads(MAX_MERGES_AT_ONCE, this.mergeGate.buffer);

  override write(changes: readonly PaperChange[]): Promise<WriteResult> {
    return this.mergeGate.hold(() => super.write(changes));
  }

  private closed = false;

  override async close(): Promise<void> {
    this.closed = true;
    await Promise.all([super.close(), ...this.deltas.map((deltas) => deltas.close()), this.mergeThreads.close()]);
  }

  /** Merges are built on a thread of their own, which reads the segments' shared memory. */
  protected override buildMerged(from: readonly Segment[]): Promise<IndexData> {
    return this.mergeThreads.merge(from);
  }

  protected override mergeFailed(error: unknown): void {
    // Answers are unaffected (the segments stay); say why the catalogue was not compacted.
    console.error('paperlist: a background merge of the memory source failed:', error);
  }

  /**
   * The catalogue as it is when called, as one index: the base alone when no write changed it
   * since the last merge, else a merge of every segment built on a thread for the file (not
   * served: the background merges go on by their own policy).
   */
  async save(path: string): Promise<void> {
    const segments = this.segments;
    const version = this.fixedVersion;
    const only = segments.length === 1 && segments[0]!.live === null ? segments[0]!.index : await this.mergeThreads.merge(segments);
    return writeSnapshot(path, indexParts(only), { version });
  }
}
