// A merge thread (see merge-pool.ts): decodes and merges posting lists off the event loop.
import { parentPort } from 'node:worker_threads';
import { decodeAndMerge, type RawPostingList } from '../posting-merge.js';
import type { MergeReply, MergeRequest } from './merge-messages.js';

const port = parentPort;
if (port === null) throw new Error('paperlist: merge-worker runs as a worker thread');

port.on('message', (request: MergeRequest) => {
  let reply: MergeReply;
  const transfer = new Set<ArrayBuffer>();
  try {
    const bytes = new Uint8Array(request.data);
    const lists: RawPostingList[] = request.words.map((word, i) => ({
      word,
      df: request.dfs[i]!,
      data: bytes.subarray(request.offsets[i]!, request.offsets[i + 1]!),
    }));
    const postings = decodeAndMerge(lists, request.prefix);
    // Every array is fresh here (the merged ones, or a single word's decoded ones), each owning
    // its buffer: moving them back costs nothing. A buffer shared by two fields is listed once.
    for (const array of [postings.ords, postings.titleAll, postings.abstractAll, postings.authorsAll, postings.titleWhole, postings.abstractWhole, postings.authorsWhole]) {
      if (array !== null && array.byteLength === array.buffer.byteLength && array.buffer.byteLength > 0) transfer.add(array.buffer as ArrayBuffer);
    }
    reply = { id: request.id, postings };
  } catch (error) {
    transfer.clear();
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply, [...transfer]);
});
