/**
 * The thread that builds an index from papers streamed to it (see `memory/build-on-thread.ts`):
 * tokenizing, serializing and laying out the postings happen here, so the thread that serves
 * requests only reads and parses the input. The finished index goes back as shared memory.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { IndexBuilder } from '../engine/builder.js';
import { estimateJsonBytes } from '../engine/paper-store.js';
import { indexFromParts, indexParts } from '../engine/index-parts.js';
import { livePapers } from '../segments/segment-writes.js';
import type { Paper } from '../paper.js';
import type { PaperAnnotations } from '../annotations/annotations.js';
import type { BuilderData, FromBuilder, ToBuilder } from './build-messages.js';
import { sortedVocabularyFromClone, tokenLayoutFromClone, type TokensElsewhere } from '../engine/token-layout.js';
import { TokenSignal, type FromTokenizer, type ToTokenizerFromBuilder } from './tokenize-messages.js';
import { lowerThreadPriority } from './thread-priority.js';
import { warmUpBuilds } from './builder-warm-up.js';
import { MAX_MERGE_PAUSE_MS, passMergeGate } from './merge-gate.js';

const port = parentPort;
if (port === null) throw new Error('paperlist: build-worker.js runs as a worker thread of the memory source');
const { role, gate } = workerData as BuilderData;
lowerThreadPriority(role);
/** A delta thread's indexes defer the tables only some queries read (see `deferred-tables.ts`): the writer waits for them. */
const deferTables = role === 'delta';
/** A merge thread's checkpoint: it gives way to write batches (see `merge-gate.ts`). */
const checkpoint = gate === undefined ? null : passMergeGate.bind(null, new Int32Array(gate), MAX_MERGE_PAUSE_MS);
/** Papers a merge reads between two checkpoints. */
const PAPERS_PER_CHECKPOINT = 256;
// A new builder for each index, made when its papers arrive: a thread kept for the writes' delta
// indexes builds one after another.
let builder: IndexBuilder | null = null;
/**
 * Deltas and merges size their JSON storage for their papers (a delta of one paper made a
 * megabyte's store: 3 ms of a 3.1 ms build). A catalogue's build keeps the default first chunk,
 * so that its store is byte for byte the one of a build on two threads (see `parallel-build.ts`).
 */
const sizeStores = role !== 'build';

function newBuilder(expectedJsonBytes: number): IndexBuilder {
  const made = new IndexBuilder(sizeStores ? expectedJsonBytes : 0, true, deferTables);
  made.checkpoint = checkpoint;
  return made;
}
/** The tokenizing thread of a build on two threads, or null when this thread tokenizes. */
let tokenizer: TokenizerLink | null = null;

port.on('message', (message: ToBuilder) => {
  if (message.type === 'tokens-from') {
    builder = new IndexBuilder(0, false);
    tokenizer = new TokenizerLink(message.port, new Int32Array(message.signal));
    return;
  }
  let reply: FromBuilder;
  try {
    if (message.type === 'papers' && tokenizer !== null) {
      addTokenized(tokenizer, message.papers, message.annotations);
      reply = { type: 'added' };
    } else if (message.type === 'papers') {
      const { papers, annotations } = message;
      const to = (builder ??= newBuilder(estimateJsonBytes(papers)));
      if (annotations === undefined) for (const paper of papers) to.add(paper);
      else papers.forEach((paper, i) => to.add(paper, annotations[i] ?? undefined));
      reply = { type: 'added' };
    } else if (message.type === 'warm-up') {
      warmUpBuilds(message.warmUp);
      reply = { type: 'warmed' };
    } else if (message.type === 'segments') {
      const segments = message.segments.map(({ parts, live }, id) => ({ id, index: indexFromParts(parts), live }));
      const to = (builder ??= newBuilder(segments.reduce((bytes, { index }) => bytes + index.store.jsonBytes, 0)));
      let read = 0;
      for (const { paper, annotations } of livePapers(segments)) {
        if (checkpoint !== null && ++read % PAPERS_PER_CHECKPOINT === 0) checkpoint();
        to.add(paper, annotations);
      }
      reply = { type: 'added' };
    } else {
      const finishing = builder ?? newBuilder(0);
      const built = tokenizer === null ? finishing.finish() : finishing.finish(tokenizer.elsewhere());
      tokenizer = null;
      builder = null;
      reply = { type: 'built', parts: indexParts(built, 'keep') };
    }
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply = { type: 'failed', name: e.name, message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) };
  }
  port.postMessage(reply);
});

/** One batch, its tokens taken from the tokenizing thread (which got the same batch). */
function addTokenized(link: TokenizerLink, papers: Paper[], annotations: (PaperAnnotations | null)[] | undefined): void {
  if (builder === null) throw new Error('paperlist: a build thread was sent tokenized papers before its builder');
  const to = builder;
  const { papers: count, authorWords, authorEnds, ascii } = link.next('tokens');
  if (count !== papers.length) throw new Error(`paperlist: the tokenizing thread sent ${count} papers' tokens, expected ${papers.length}`);
  let ends = 0;
  for (let p = 0; p < papers.length; p++) {
    const paper = papers[p]!;
    const from = ends === 0 ? 0 : authorEnds[ends - 1]!;
    to.addTokenized(paper, annotations?.[p] ?? undefined, authorWords, from, authorEnds, ends, ascii[p]!);
    ends += paper.authors.length;
  }
}

/**
 * The tokenizing thread's messages, read synchronously: this thread blocks until the next one
 * is posted (it serves no requests), so a batch is added in one message handler, as without it.
 */
class TokenizerLink {
  private seen = 0;

  constructor(
    private readonly port: MessagePort,
    private readonly signal: Int32Array,
  ) {}

  /** The tokenizing thread as the token half of this thread's finish. */
  elsewhere(): TokensElsewhere {
    return {
      vocabulary: () => sortedVocabularyFromClone(this.next('vocabulary').vocabulary),
      order: (order) => this.port.postMessage({ type: 'order', order } satisfies ToTokenizerFromBuilder),
      layout: () => tokenLayoutFromClone(this.next('laid-out').layout),
    };
  }

  next<T extends FromTokenizer['type']>(type: T): Extract<FromTokenizer, { type: T }> {
    for (;;) {
      const received = receiveMessageOnPort(this.port) as { message: FromTokenizer } | undefined;
      if (received !== undefined) {
        this.seen++;
        const message = received.message;
        if (message.type === 'failed') {
          const error = new Error(message.message);
          error.name = message.name;
          throw error;
        }
        if (message.type !== type) throw new Error(`paperlist: the tokenizing thread sent ${message.type}, expected ${type}`);
        return message as Extract<FromTokenizer, { type: T }>;
      }
      if (Atomics.load(this.signal, TokenSignal.ABANDONED) === 1) throw new Error('paperlist: the tokenizing thread stopped');
      // Woken by the next post; the timeout only rechecks ABANDONED.
      Atomics.wait(this.signal, TokenSignal.POSTED, this.seen, 200);
    }
  }
}
