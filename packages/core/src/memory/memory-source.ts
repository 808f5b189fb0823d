import { IndexBuilder, type IndexData } from '../engine/builder.js';
import { Engine } from '../engine/engine.js';
import { estimateJsonBytes } from '../engine/paper-store.js';
import { readPapers } from '../load/read-papers.js';
import type { PaperInput, ReadPapersOptions } from '../load/types.js';
import type { Paper } from '../paper.js';
import type { MemorySource, MemorySourceOptions } from '../scan/scan-source.js';

export type { MemorySource, MemorySourceOptions };

/** Where a catalogue can be streamed from: a file, bytes, or papers already parsed. */
export type PaperStream = PaperInput | Iterable<Paper> | AsyncIterable<Paper>;

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
  replaceFrom(input: PaperStream, options?: MemoryStreamOptions): Promise<void>;
}

/**
 * paperlist's default source: the whole catalogue in memory, indexed for search and every
 * ordering (see docs/performance.md). Answers are identical to {@link createScanSource}'s.
 *
 * @example
 * const source = createMemorySource(await loadSamplePapers());
 */
export function createMemorySource(papers: readonly Paper[], options: MemorySourceOptions = {}): IndexedMemorySource {
  const builder = new IndexBuilder(estimateJsonBytes(papers));
  for (const paper of papers) builder.add(paper);
  return new EngineSource(builder.finish(), options.version);
}

/**
 * The in-memory source built from a stream, for catalogues too large to hold as objects:
 * papers are indexed as they are read, and only their JSON and the index are kept.
 *
 * @example
 * const source = await createMemorySourceFromStream('papers.jsonl.gz');
 */
export async function createMemorySourceFromStream(input: PaperStream, options: MemoryStreamOptions = {}): Promise<IndexedMemorySource> {
  return new EngineSource(await buildFrom(input, options.read), options.version);
}

/**
 * Builds an index from a stream: a path or Node `Readable` (read with `readPapers`: JSON Lines or
 * a JSON array, gzip or not), an async iterable of bytes (same), or papers (sync or async).
 * An async iterable is told apart by its first item.
 */
export async function buildFrom(input: PaperStream, read: ReadPapersOptions = {}): Promise<IndexData> {
  const builder = new IndexBuilder();
  if (typeof input === 'string' || typeof (input as { pipe?: unknown }).pipe === 'function') {
    for await (const paper of readPapers(input as PaperInput, read)) builder.add(paper);
    return builder.finish();
  }
  if (!(Symbol.asyncIterator in input)) {
    const papers = Array.isArray(input) ? (input as readonly Paper[]) : null;
    const sized = papers === null ? builder : new IndexBuilder(estimateJsonBytes(papers));
    for (const paper of input as Iterable<Paper>) sized.add(paper);
    return sized.finish();
  }
  const iterator = (input as AsyncIterable<Paper | Uint8Array>)[Symbol.asyncIterator]();
  const first = await iterator.next();
  const rest: AsyncIterable<Paper | Uint8Array> = {
    [Symbol.asyncIterator]: () => {
      let pending: IteratorResult<Paper | Uint8Array> | null = first;
      return {
        next: async () => {
          if (pending !== null) {
            const value = pending;
            pending = null;
            return value;
          }
          return iterator.next();
        },
        return: async () => (iterator.return ? iterator.return() : { done: true, value: undefined }),
      };
    },
  };
  if (first.done !== true && first.value instanceof Uint8Array) {
    for await (const paper of readPapers(rest as AsyncIterable<Uint8Array>, read)) builder.add(paper);
  } else {
    for await (const paper of rest as AsyncIterable<Paper>) builder.add(paper);
  }
  return builder.finish();
}

class EngineSource implements IndexedMemorySource {
  private engine: Engine;
  private fixedVersion: string;
  private generation = 0;

  constructor(index: IndexData, version: string | undefined) {
    this.engine = new Engine(index);
    this.fixedVersion = version ?? versionOf(index);
  }

  get size(): number {
    return this.engine.size;
  }

  version(): string {
    return this.fixedVersion;
  }

  replace(papers: readonly Paper[]): void {
    const builder = new IndexBuilder(estimateJsonBytes(papers));
    for (const paper of papers) builder.add(paper);
    this.swap(builder.finish(), ++this.generation);
  }

  async replaceFrom(input: PaperStream, options: MemoryStreamOptions = {}): Promise<void> {
    const generation = ++this.generation;
    const index = await buildFrom(input, options.read);
    this.swap(index, generation, options.version);
  }

  private swap(index: IndexData, generation: number, version?: string): void {
    if (generation !== this.generation) return; // a newer replacement started meanwhile
    this.engine = new Engine(index);
    this.fixedVersion = version ?? versionOf(index);
  }

  async list(query: Parameters<MemorySource['list']>[0], options?: Parameters<MemorySource['list']>[1]) {
    options?.signal?.throwIfAborted();
    return this.engine.list(query);
  }

  async get(id: string) {
    return this.engine.get(id);
  }
}

function versionOf(index: IndexData): string {
  return `m${index.n}-${index.digest}`;
}
