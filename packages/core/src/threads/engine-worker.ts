/**
 * A query thread of the memory source's pool (see `engine-pool.ts`). It answers list queries
 * over the segments it was given (shared memory: nothing is copied) and swaps to the next
 * generation of them when told; each query runs within its budget and stops when the pool raises its cancel flag.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { IndexData } from '../engine/builder.js';
import { indexFromParts } from '../engine/index-parts.js';
import { SegmentedEngine } from '../segments/segmented-engine.js';
import { segmentedPageJson } from '../segments/segmented-page.js';
import { QueryInterruptedError } from '../engine/work-budget.js';
import type { SegmentMessage, ToPool, ToThread, ThreadData } from './pool-messages.js';
import { lowerThreadPriority } from './thread-priority.js';
import { PageBuffers } from './page-buffers.js';

const port = parentPort;
if (port === null) throw new Error('paperlist: engine-worker.js runs as a worker thread of the memory source');
const data = workerData as ThreadData;
lowerThreadPriority('query');
/** The indexes of the segments served, by segment id: kept from one generation to the next. */
let indexes = new Map<number, IndexData>();

function load(segments: readonly SegmentMessage[]): SegmentedEngine {
  const next = new Map<number, IndexData>();
  const engine = new SegmentedEngine(
    segments.map(({ id, parts, live }) => {
      const index = parts !== undefined ? indexFromParts(parts) : indexes.get(id);
      if (index === undefined) throw new Error(`paperlist: a query thread was sent segment ${id} without its index`);
      next.set(id, index);
      return { id, index, live };
    }),
  );
  indexes = next;
  return engine;
}

let engine = load(data.segments);
const pageBuffers = new PageBuffers();
const takePageBuffer = (bytes: number) => pageBuffers.take(bytes);
// For tests of the server around a slow query: each query first keeps this thread busy so long.
const debugSpinMs = Number(process.env['PAPERLIST_DEBUG_QUERY_SPIN_MS'] ?? 0);

port.on('message', (message: ToThread) => {
  if (message.type === 'load') {
    engine = load(message.segments);
    return;
  }
  if (message.type === 'recycle') {
    pageBuffers.give(message.buffer);
    return;
  }
  const { id, query, budgetMs, token } = message;
  if (debugSpinMs > 0) for (const until = performance.now() + debugSpinMs; performance.now() < until; );
  let reply: ToPool;
  try {
    const cancel = { flag: data.cancel, index: data.slot, token };
    const { count, hits, facets } = engine.window(query, { deadline: performance.now() + budgetMs, cancel });
    const page = segmentedPageJson(engine.segments, hits, takePageBuffer);
    // The page's buffer is transferred, not copied.
    port.postMessage({ id, count, page, ...(facets === undefined ? {} : { facets }) } satisfies ToPool, [page.json.buffer as ArrayBuffer]);
    return;
  } catch (error) {
    reply =
      error instanceof QueryInterruptedError
        ? { id, interrupted: error.reason }
        : { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(reply);
});
