import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import { PaperlistOptionsError } from '../http/handler-options.js';
import type { Paper } from '../paper.js';
import type { PaperText } from '../engine/paper-tokens.js';
import type { ToBuilder } from '../threads/build-messages.js';
import { TokenSignal, type ToTokenizer } from '../threads/tokenize-messages.js';
import { tokenizeWorkerScript } from '../threads/worker-script.js';

/**
 * A build on two threads: the papers are read here and sent, batch by batch, both to the
 * building thread and to a tokenizing thread (that one only their titles, abstracts and
 * authors). The tokenizing thread splits them into word numbers while the building thread
 * serializes them and collects the rest (the substring filters' tables of titles and abstracts
 * among it: a profile of the 1M build had the tokenizing thread busy throughout and the
 * building thread waiting for it a third of the time); the building thread takes each batch's
 * author words, and which texts are pure ASCII, from it. At the finish both lay out: the
 * tokenizing thread sorts the vocabulary, then lays out the postings and the other tables read
 * from the tokens (`engine/token-layout.ts`) once the building thread has sorted the titles and
 * told it the documents' order; the building thread meanwhile lays out the stored JSON, the
 * author names, the substring filters' tables and the value sets. Both see the papers in the
 * same order and run the code a single thread runs, so the index is the one a single thread
 * builds, byte for byte.
 *
 * The two do not merge anything: the tokenizing thread owns the vocabulary, so its word
 * numbers are the build's.
 */
export class TokenizingThread {
  private readonly worker: Worker;
  private readonly signal = new Int32Array(new SharedArrayBuffer(TokenSignal.SLOTS * 4));

  /** Starts the thread and tells `builder` (a building thread that has not been sent papers yet) to take its tokens. */
  constructor(builder: Worker) {
    this.worker = new Worker(tokenizeWorkerScript(), { name: 'paperlist-tokenize' });
    // Should it die without a word, the building thread must stop waiting for its tokens.
    const abandon = () => {
      Atomics.store(this.signal, TokenSignal.ABANDONED, 1);
      Atomics.notify(this.signal, TokenSignal.POSTED);
    };
    this.worker.on('error', abandon);
    this.worker.on('exit', abandon);
    const { port1, port2 } = new MessageChannel();
    this.worker.postMessage({ type: 'start', port: port1, signal: this.signal.buffer as SharedArrayBuffer } satisfies ToTokenizer, [port1]);
    builder.postMessage({ type: 'tokens-from', port: port2, signal: this.signal.buffer as SharedArrayBuffer } satisfies ToBuilder, [port2]);
  }

  /** A batch, sent to the building thread too, in the same order. */
  papers(papers: readonly Paper[]): void {
    const texts = papers.map(({ title, abstract, authors }): PaperText => ({ title, abstract, authors }));
    this.worker.postMessage({ type: 'papers', papers: texts } satisfies ToTokenizer);
  }

  /** No more papers: the thread sorts the vocabulary, then lays out the postings for the building thread. */
  finish(): void {
    this.worker.postMessage({ type: 'finish' } satisfies ToTokenizer);
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}

/** Threads building an index by default: two where there are two cores, else one. */
export function defaultBuildThreads(): number {
  return availableParallelism() >= 2 ? 2 : 1;
}

/** Checks `buildThreads` (1 or 2). */
export function resolveBuildThreads(buildThreads: unknown = defaultBuildThreads()): 1 | 2 {
  if (buildThreads !== 1 && buildThreads !== 2) {
    throw new PaperlistOptionsError('buildThreads', `paperlist: \`buildThreads\` must be 1 or 2, got ${String(buildThreads)}.`);
  }
  return buildThreads;
}
