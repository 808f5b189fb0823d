import type { Paper } from '../paper.js';
import type { FieldLengths } from '../search/relevance.js';
import { Growable } from './growable.js';
import { MAX_POSITION } from './postings.js';
import { TokenStream, type TokenStreamParts } from './token-stream.js';
import { WordTable, type WordCodes } from './word-table.js';
import { int32Array, uint32Array, uint8Array } from './alloc.js';

/**
 * What the layout of the postings needs from the tokenizing of every paper: the build-time
 * vocabulary, each paper's word numbers and the counts per word. Plain data (typed arrays,
 * strings), so it crosses to another thread (see `memory/parallel-build.ts`).
 */
export interface TokenData {
  /** The build-time words, by build-time number. */
  readonly words: WordCodes;
  readonly stream: TokenStreamParts;
  /** Per build-time word number: the last paper that held it + 1, its papers, its positions. */
  readonly counts: Int32Array;
  /** Title, abstract, authors word counts per paper (input order). */
  readonly lengths: Uint32Array;
  /** 1 for a paper too long for positions (see `MAX_POSITION`). */
  readonly oversize: Uint8Array;
  readonly totals: FieldLengths;
}

/** A paper's title is pure ASCII (a flag of `IndexBuilder.addTokenized`'s `ascii`). */
export const ASCII_TITLE = 1;
/** A paper's abstract is pure ASCII (a flag of `IndexBuilder.addTokenized`'s `ascii`). */
export const ASCII_ABSTRACT = 2;

/** What the tokenizer reads of a paper: all a tokenizing thread is sent of each (see `memory/parallel-build.ts`). */
export type PaperText = Pick<Paper, 'title' | 'abstract' | 'authors'>;

/**
 * Splits papers into word numbers (in input order), keeping what the postings are laid out
 * from, and collects what the substring filters need of titles and abstracts (the same text,
 * and whether it is pure ASCII, which the tokenizer finds out). Everything else the index needs
 * of a paper does not depend on this, except the words of author names (for `author=`), which
 * {@link add} leaves readable until the next paper: the builder can run this on the same
 * thread, or on another one that hands those words over (see `memory/parallel-build.ts`).
 */
export class PaperTokenizer {
  private readonly table = new WordTable();
  private readonly stream = new TokenStream();
  private buffer = uint32Array(1 << 14);
  private flags = uint8Array(1 << 14);
  private readonly fieldLengths: number[] = [];
  private counts = int32Array(3 << 12);
  private readonly lengths = new Growable(uint32Array); // title, abstract, authors per paper
  private readonly oversize = new Growable(uint8Array);
  private readonly totals: FieldLengths = { title: 0, abstract: 0, authors: 0 };
  private papers = 0;

  /** The last paper's word numbers (no flags): its author names' are `[authorEnds[a - 1] or authorsFrom, authorEnds[a])`. */
  get words(): Uint32Array {
    return this.buffer;
  }
  /** Where the last paper's author words start in {@link words}. */
  authorsFrom = 0;
  /** Where each author name's words of the last paper end in {@link words}. */
  readonly authorEnds: number[] = [];
  /**
   * Whether the last paper's title, and its abstract, are pure ASCII (the tokenizer finds out):
   * what the substring filters' tables need besides the text (see `FieldTextBuilder`).
   */
  titleAscii = true;
  abstractAscii = true;

  /** Tokenizes the next paper. */
  add(paper: PaperText): void {
    const i = this.papers++;
    let need = paper.title.length + paper.abstract.length;
    for (const name of paper.authors) need += name.length;
    if (this.buffer.length < need) {
      this.buffer = uint32Array(need * 2);
      this.flags = uint8Array(need * 2);
    }
    const words = this.buffer;
    const flags = this.flags;
    const table = this.table;
    const fields = this.fieldLengths;
    fields.length = 0;
    this.authorEnds.length = 0;
    let at = table.tokenize(paper.title, words, 0, flags);
    this.titleAscii = table.ascii;
    const title = at;
    at = table.tokenize(paper.abstract, words, at, flags);
    this.abstractAscii = table.ascii;
    const abstract = at - title;
    fields.push(title, abstract);
    this.authorsFrom = at;
    let authors = 0;
    let layoutEnd = title + abstract + 2;
    for (const name of paper.authors) {
      const from = at;
      at = table.tokenize(name, words, at, flags);
      this.authorEnds.push(at);
      fields.push(at - from);
      authors += at - from;
      layoutEnd += at - from + 1;
    }
    const big = layoutEnd > MAX_POSITION + 1;

    this.ensureWordCapacity(table.size);
    const counts = this.counts;
    const stamp = i + 1;
    for (let k = 0; k < at; k++) {
      const c = 3 * words[k]!;
      if (counts[c] !== stamp) {
        counts[c] = stamp;
        counts[c + 1]!++;
        if (big) counts[c + 2]!++;
      }
      if (!big) counts[c + 2]!++;
    }
    // The stream keeps each word with its separator flags: (word << 2) | flags. The flags go
    // into `flags` itself (as whole numbers would not fit a byte), so `words` stays readable.
    this.stream.writeWithFlags(fields, fields.length, words, flags, at);

    this.lengths.push(title);
    this.lengths.push(abstract);
    this.lengths.push(authors);
    this.oversize.push(big ? 1 : 0);
    this.totals.title += title;
    this.totals.abstract += abstract;
    this.totals.authors += authors;
  }

  private ensureWordCapacity(size: number): void {
    if (3 * size <= this.counts.length) return;
    let capacity = this.counts.length * 2;
    while (capacity < 3 * size) capacity *= 2;
    const counts = int32Array(capacity);
    counts.set(this.counts);
    this.counts = counts;
  }

  /** Everything tokenized; the tokenizer cannot be used afterwards. */
  finish(): TokenData {
    this.stream.seal();
    return {
      words: this.table.codes(),
      stream: this.stream.parts(),
      counts: this.counts,
      lengths: this.lengths.array,
      oversize: this.oversize.array,
      totals: { ...this.totals },
    };
  }
}
