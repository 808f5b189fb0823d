import type { PaperText } from '../engine/paper-tokens.js';
import type { SortedVocabulary, TokenLayout } from '../engine/token-layout.js';
import type { MessagePort } from 'node:worker_threads';

/**
 * The tokenizing thread of a build on two threads (see `memory/parallel-build.ts`). From the
 * owner: where to send the tokens, then the same batches of papers the building thread gets
 * (only what the tokenizer reads of them: copying whole papers to a second thread cost the
 * reading thread and this one time for fields they never read), then the order to finish.
 */
export type ToTokenizer =
  /** `port`: to the building thread; `signal`: see {@link TokenSignal}. */
  | { type: 'start'; port: MessagePort; signal: SharedArrayBuffer }
  | { type: 'papers'; papers: PaperText[] }
  | { type: 'finish' };

/**
 * From the tokenizing thread to the building thread, one per batch, in order: what the building
 * thread needs of each paper's tokens (the word numbers of its author names, one after another,
 * and where each name ends in them; whether its title and abstract are pure ASCII, as flags
 * `ASCII_TITLE` | `ASCII_ABSTRACT` of `engine/paper-tokens.ts`). Then, at the finish, the
 * sorted vocabulary and, once told the documents' order ({@link ToTokenizerFromBuilder}), the
 * token half of the index (see `engine/token-layout.ts`), both as structured clones of shared
 * arrays.
 */
export type FromTokenizer =
  | { type: 'tokens'; papers: number; authorWords: Uint32Array; authorEnds: Uint32Array; ascii: Uint8Array }
  | { type: 'vocabulary'; vocabulary: SortedVocabulary }
  | { type: 'laid-out'; layout: TokenLayout }
  | { type: 'failed'; name: string; message: string };

/** From the building thread to the tokenizing thread, over the same port: the documents' order, once its titles are sorted. */
export type ToTokenizerFromBuilder = { type: 'order'; order: Uint32Array };

/**
 * Slots of the shared `Int32Array` beside the port: the building thread waits on it (it is a
 * worker thread, so it may block) for the next message of the tokenizing thread.
 */
export const TokenSignal = {
  /** Messages posted to the building thread so far (incremented after each post). */
  POSTED: 0,
  /** Set to 1 by the owner when the tokenizing thread died without a word: stop waiting. */
  ABANDONED: 1,
  SLOTS: 2,
} as const;
