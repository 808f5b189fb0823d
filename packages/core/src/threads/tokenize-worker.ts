/**
 * The tokenizing thread of a build on two threads (see `memory/parallel-build.ts`): splits the
 * papers into word numbers while the building thread serializes them and collects the rest,
 * and hands each batch's author words (and which titles and abstracts are pure ASCII) to the
 * building thread. At the finish it sorts the
 * vocabulary and, once the building thread has sorted the titles, lays out the postings (the
 * token half of the index, `engine/token-layout.ts`) while that thread lays out the rest.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { ASCII_ABSTRACT, ASCII_TITLE, PaperTokenizer, type TokenData } from '../engine/paper-tokens.js';
import { Growable } from '../engine/growable.js';
import { layoutTokens, sortVocabulary, type SortedVocabulary } from '../engine/token-layout.js';
import { TokenSignal, type FromTokenizer, type ToTokenizer, type ToTokenizerFromBuilder } from './tokenize-messages.js';
import { lowerThreadPriority } from './thread-priority.js';

const port = parentPort;
if (port === null) throw new Error('paperlist: tokenize-worker.js runs as a worker thread of the memory source');
// As the building thread it works beside (a reload must not slow the queries of the catalogue it replaces).
lowerThreadPriority('build');

let out: MessagePort | null = null;
let signal: Int32Array | null = null;
const tokenizer = new PaperTokenizer();

function post(message: FromTokenizer, transfer: ArrayBuffer[] = []): void {
  out!.postMessage(message, transfer);
  // After the post: the building thread reads the message once it sees the count move.
  Atomics.add(signal!, TokenSignal.POSTED, 1);
  Atomics.notify(signal!, TokenSignal.POSTED);
}

port.on('message', (message: ToTokenizer) => {
  if (message.type === 'start') {
    out = message.port;
    signal = new Int32Array(message.signal);
    return;
  }
  try {
    if (message.type === 'papers') {
      const { papers } = message;
      const authorWords = new Growable((length) => new Uint32Array(length), 4096);
      const authorEnds = new Growable((length) => new Uint32Array(length), 1024);
      const ascii = new Uint8Array(papers.length);
      for (let p = 0; p < papers.length; p++) {
        tokenizer.add(papers[p]!);
        ascii[p] = (tokenizer.titleAscii ? ASCII_TITLE : 0) | (tokenizer.abstractAscii ? ASCII_ABSTRACT : 0);
        const words = tokenizer.words;
        const ends = tokenizer.authorEnds;
        let from = tokenizer.authorsFrom;
        for (let a = 0; a < ends.length; a++) {
          const to = ends[a]!;
          for (let k = from; k < to; k++) authorWords.push(words[k]!);
          authorEnds.push(authorWords.length);
          from = to;
        }
      }
      const words = authorWords.toArray();
      const ends = authorEnds.toArray();
      post({ type: 'tokens', papers: papers.length, authorWords: words, authorEnds: ends, ascii }, [words.buffer as ArrayBuffer, ends.buffer as ArrayBuffer, ascii.buffer]);
    } else {
      const tokens = tokenizer.finish();
      const vocabulary = sortVocabulary(tokens.words);
      post({ type: 'vocabulary', vocabulary });
      out!.once('message', (order: ToTokenizerFromBuilder) => guarded(() => layOut(tokens, vocabulary, order.order)));
    }
  } catch (error) {
    fail(error);
  }
});

function layOut(tokens: TokenData, vocabulary: SortedVocabulary, order: Uint32Array): void {
  const n = tokens.stream.starts.length;
  if (order.length !== n) throw new Error(`paperlist: ${n} papers were tokenized, ${order.length} added`);
  // With the commonest words' fields, which read the postings: the building thread would do them last, alone.
  post({ type: 'laid-out', layout: layoutTokens(n, order, vocabulary, tokens, true) });
}

function guarded(run: () => void): void {
  try {
    run();
  } catch (error) {
    fail(error);
  }
}

function fail(error: unknown): void {
  const e = error instanceof Error ? error : new Error(String(error));
  post({ type: 'failed', name: e.name, message: e.message });
}
