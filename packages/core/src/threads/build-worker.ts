/**
 * The thread that builds an index from papers streamed to it (see `memory/build-on-thread.ts`):
 * tokenizing, serializing and laying out the postings happen here, so the thread that serves
 * requests only reads and parses the input. The finished index goes back as shared memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { IndexBuilder } from '../engine/builder.js';
import { indexFromParts, indexParts } from '../engine/index-parts.js';
import { livePapers } from '../segments/segment-writes.js';
import type { BuilderData, FromBuilder, ToBuilder } from './build-messages.js';
import { lowerThreadPriority } from './thread-priority.js';

const port = parentPort;
if (port === null) throw new Error('paperlist: build-worker.js runs as a worker thread of the memory source');
lowerThreadPriority((workerData as BuilderData).role);
// A new builder after each finished index: a thread kept for the writes' delta indexes builds one after another.
let builder = new IndexBuilder();

port.on('message', (message: ToBuilder) => {
  let reply: FromBuilder;
  try {
    if (message.type === 'papers') {
      const { papers, annotations } = message;
      if (annotations === undefined) for (const paper of papers) builder.add(paper);
      else papers.forEach((paper, i) => builder.add(paper, annotations[i] ?? undefined));
      reply = { type: 'added' };
    } else if (message.type === 'segments') {
      const segments = message.segments.map(({ parts, live }, id) => ({ id, index: indexFromParts(parts), live }));
      for (const { paper, annotations } of livePapers(segments)) builder.add(paper, annotations);
      reply = { type: 'added' };
    } else {
      const built = builder.finish();
      builder = new IndexBuilder();
      reply = { type: 'built', parts: indexParts(built) };
    }
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply = { type: 'failed', name: e.name, message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) };
  }
  port.postMessage(reply);
});
