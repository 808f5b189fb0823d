import type { IndexData } from '../engine/builder.js';
import { EncodedPaper } from '../encoded-paper.js';
import type { ReadPapersOptions } from '../load/types.js';
import type { Paper } from '../paper.js';
import { PaperlistOptionsError } from '../http/handler-options.js';
import type { MemorySource, ScanSourceOptions } from '../scan/scan-source.js';
import type { PaperPage, PaperQuery, SourceCallOptions } from '../source.js';
import { indexFromParts, indexParts } from '../engine/index-parts.js';
import { readSnapshot, writeSnapshot } from '../snapshot/snapshot-file.js';
import { EnginePool } from '../threads/engine-pool.js';
import { buildFrom, buildIndex, type PaperStream } from './build-index.js';
import { InThreadRunner, type QueryRunner } from './query-runner.js';

export type { MemorySource, PaperStream };

/** Options of {@link createMemorySource}. */
export interface MemorySourceOptions extends ScanSourceOptions {
  /**
   * Worker threads that answer queries, sharing one copy of the index: the calling thread
   * (the one that accepts connections) then never runs a query, and one process uses every
   * core. `0` answers on the calling thread. Default 0; `paperlist serve` uses one per core.
   */
  threads?: number;
  /**
   * Milliseconds of work one query may take. A query that needs more stops and is refused
   * with `QueryBudgetError` (the handler answers `503` with `Retry-After`). The engine's
   * index bounds the work of every query it was designed for far below this; the budget is
   * for what nobody foresaw. Default 1,000; `Infinity` for no limit.
   */
  budgetMs?: number;
  /**
   * With threads: queries that may wait for a free thread. When that many wait, the next is
   * refused at once with `SourceOverloadedError` (`503`). Default 256.
   */
  maxQueue?: number;
}

/** Options of {@link createMemorySourceFromStream} and {@link IndexedMemorySource.replaceFrom}. */
export interface MemoryStreamOptions extends MemorySourceOptions {
  /** How a file or byte stream is read (ignored for papers): progress, `skipInvalid`, abort signal. */
  read?: ReadPapersOptions;
}

/** The in-memory source: a {@link MemorySource} whose catalogue can also be replaced from a stream. */
export interface IndexedMemorySource extends MemorySource {
  /**
   * Builds a new catalogue from a stream aside, then swaps it in atomically; requests keep
   * being answered from the old one meanwhile. If several replacements overlap, the one
   * started last wins. On error the current catalogue stays.
   */
  replaceFrom(input: PaperStream, options?: Pick<MemoryStreamOptions, 'read' | 'version'>): Promise<void>;
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
  /** Stops the query threads (if any). Queries still waiting are refused; the source answers no more. */
  close(): Promise<void>;
}

/** Defaults of {@link MemorySourceOptions}. */
export const DEFAULT_BUDGET_MS = 1000;
export const DEFAULT_MAX_QUEUE = 256;

/**
 * paperlist's default source: the whole catalogue in memory, indexed for search and every
 * ordering (see docs/performance.md). Answers are identical to {@link createScanSource}'s.
 *
 * @example
 * const source = createMemorySource(await loadSamplePapers(), { threads: 2 });
 */
export function createMemorySource(papers: readonly Paper[], options: MemorySourceOptions = {}): IndexedMemorySource {
  const runnerOptions = resolveRunnerOptions(options);
  return new EngineSource(buildIndex(papers), options.version, runnerOptions);
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
  return new EngineSource(await buildFrom(input, options.read), options.version, runnerOptions);
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
export async function openMemorySource(path: string, options: Omit<MemorySourceOptions, 'version'> = {}): Promise<IndexedMemorySource> {
  const runnerOptions = resolveRunnerOptions(options);
  const { parts, meta } = await readSnapshot(path);
  return new EngineSource(indexFromParts(parts), meta['version'], runnerOptions);
}

interface RunnerOptions {
  threads: number;
  budgetMs: number;
  maxQueue: number;
}

function resolveRunnerOptions(options: MemorySourceOptions): RunnerOptions {
  const { threads = 0, budgetMs = DEFAULT_BUDGET_MS, maxQueue = DEFAULT_MAX_QUEUE } = options;
  if (!Number.isSafeInteger(threads) || threads < 0) {
    throw new PaperlistOptionsError('threads', `paperlist: \`threads\` must be a whole number (0 for none), got ${String(threads)}.`);
  }
  if (typeof budgetMs !== 'number' || !(budgetMs > 0)) {
    throw new PaperlistOptionsError('budgetMs', `paperlist: \`budgetMs\` must be a positive number of milliseconds, got ${String(budgetMs)}.`);
  }
  if (!Number.isSafeInteger(maxQueue) || maxQueue < 0) {
    throw new PaperlistOptionsError('maxQueue', `paperlist: \`maxQueue\` must be a whole number, got ${String(maxQueue)}.`);
  }
  return { threads, budgetMs, maxQueue };
}

class EngineSource implements IndexedMemorySource {
  private index: IndexData;
  private readonly runner: QueryRunner;
  private fixedVersion: string;
  private generation = 0;

  constructor(index: IndexData, version: string | undefined, options: RunnerOptions) {
    this.index = index;
    this.fixedVersion = version ?? versionOf(index);
    this.runner = options.threads > 0 ? new EnginePool(index, options) : new InThreadRunner(index, options.budgetMs);
  }

  get size(): number {
    return this.index.n;
  }

  version(): string {
    return this.fixedVersion;
  }

  replace(papers: readonly Paper[]): void {
    this.swap(buildIndex(papers), ++this.generation);
  }

  async replaceFrom(input: PaperStream, options: Pick<MemoryStreamOptions, 'read' | 'version'> = {}): Promise<void> {
    const generation = ++this.generation;
    const index = await buildFrom(input, options.read);
    this.swap(index, generation, options.version);
  }

  async restore(path: string): Promise<void> {
    const generation = ++this.generation;
    const { parts, meta } = await readSnapshot(path);
    this.swap(indexFromParts(parts), generation, meta['version']);
  }

  private swap(index: IndexData, generation: number, version?: string): void {
    if (generation !== this.generation) return; // a newer replacement started meanwhile
    this.index = index;
    this.runner.load(index);
    this.fixedVersion = version ?? versionOf(index);
  }

  async list(query: PaperQuery, options?: SourceCallOptions): Promise<PaperPage> {
    const { count, page } = await this.runner.run(query, options?.signal);
    const { json, starts, ids } = page;
    const results = new Array<EncodedPaper>(ids.length);
    for (let i = 0; i < ids.length; i++) results[i] = new EncodedPaper(ids[i]!, json.subarray(starts[i]!, starts[i + 1]! - 1));
    return { count, results, resultsJson: json };
  }

  async get(id: string) {
    const index = this.index;
    const d = index.store.findId(id);
    return d < 0 ? null : index.store.encoded(d);
  }

  save(path: string): Promise<void> {
    return writeSnapshot(path, indexParts(this.index), { version: this.fixedVersion });
  }

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
