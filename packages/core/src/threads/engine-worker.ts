/**
 * A query thread of the memory source's pool (see `engine-pool.ts`). It answers list queries
 * over the index it was given (shared memory: nothing is copied) and swaps to a new one when
 * told; each query runs within its budget and stops when the pool raises its cancel flag.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { indexFromParts } from '../engine/index-parts.js';
import { pageJson } from '../engine/page-json.js';
import { QueryInterruptedError } from '../engine/work-budget.js';
import type { ToPool, ToThread, ThreadData } from './pool-messages.js';

const port = parentPort;
if (port === null) throw new Error('paperlist: engine-worker.js runs as a worker thread of the memory source');
const data = workerData as ThreadData;
let engine = new Engine(indexFromParts(data.parts));
// For tests of the server around a slow query: each query first keeps this thread busy so long.
const debugSpinMs = Number(process.env['PAPERLIST_DEBUG_QUERY_SPIN_MS'] ?? 0);

port.on('message', (message: ToThread) => {
  if (message.type === 'load') {
    engine = new Engine(indexFromParts(message.parts));
    return;
  }
  const { id, query, budgetMs, token } = message;
  if (debugSpinMs > 0) for (const until = performance.now() + debugSpinMs; performance.now() < until; );
  let reply: ToPool;
  try {
    const cancel = { flag: data.cancel, index: data.slot, token };
    const { count, docs, facets } = engine.window(query, { deadline: performance.now() + budgetMs, cancel });
    const page = pageJson(engine.index.store, docs);
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
