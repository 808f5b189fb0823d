import type { IndexData } from '../engine/builder.js';
import { readPapers } from '../load/read-papers.js';
import type { PaperInput, ReadPapersOptions } from '../load/types.js';
import type { Paper } from '../paper.js';
import type { AnnotationMap } from '../annotations/annotations.js';
import { buildIndex } from './build-index.js';
import { buildOnThread } from './build-on-thread.js';

/** Where a catalogue can be streamed from: a file, bytes, or papers already parsed. */
export type PaperStream = PaperInput | Iterable<Paper> | AsyncIterable<Paper>;

/**
 * Builds an index from a stream: a path or Node `Readable` (read with `readPapers`: JSON Lines or
 * a JSON array, gzip or not), an async iterable of bytes (same), or papers (sync or async).
 * An async iterable is told apart by its first item. The input is read on the calling thread
 * and the index built on a worker thread (see `buildOnThread`), so a process serving requests
 * while it rebuilds its catalogue keeps answering them. `annotations`: the papers' tasks and
 * methods by id (read for each paper once it has been read, so a map `readCatalog` fills as it
 * streams works); byte inputs are paperlist records, which have none. `buildThreads`: 2 tokenizes
 * on a thread of its own too (see `TokenizingThread`).
 */
export async function buildFrom(input: PaperStream, read: ReadPapersOptions = {}, annotations?: AnnotationMap, buildThreads: 1 | 2 = 1): Promise<IndexData> {
  if (typeof input === 'string' || typeof (input as { pipe?: unknown }).pipe === 'function') {
    return buildOnThread(readPapers(input as PaperInput, read), undefined, buildThreads);
  }
  if (!(Symbol.asyncIterator in input)) {
    if (Array.isArray(input)) return buildIndex(input as readonly Paper[], annotations);
    return buildOnThread(input as Iterable<Paper>, annotations, buildThreads);
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
  if (first.done !== true && first.value instanceof Uint8Array) return buildOnThread(readPapers(rest as AsyncIterable<Uint8Array>, read), undefined, buildThreads);
  return buildOnThread(rest as AsyncIterable<Paper>, annotations, buildThreads);
}
