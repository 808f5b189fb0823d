import { textWords } from '../text/words.js';
import { int32Array, uint16Array, uint32Array } from './alloc.js';

const FNV_BASIS = 0x811c9dc5 | 0;
const SPACE = 0x20;
/** Tokenizer flag: the separator before the word is exactly one space. */
export const SPACE_BEFORE_FLAG = 1;
/** Tokenizer flag: the separator after the word is exactly one space. */
export const SPACE_AFTER_FLAG = 2;
const FNV_PRIME = 0x01000193;

/** For ASCII: 0 for a character that separates words, else the folded (lower-cased) letter or digit. */
export const ASCII_FOLD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII_FOLD[c] = c;
for (let c = 97; c <= 122; c++) ASCII_FOLD[c] = c;
for (let c = 65; c <= 90; c++) ASCII_FOLD[c] = c + 32;

/** Words as UTF-16 codes in one pool: word `w` is `chars[spans[2w], spans[2w] + spans[2w + 1])`. */
export interface WordCodes {
  readonly chars: Uint16Array;
  readonly spans: Uint32Array;
}

/**
 * The build-time vocabulary: a hash table from folded words to word numbers (in order of
 * first appearance), fed by a tokenizer that gives exactly the words of `textWords`. Pure
 * ASCII text is split, folded and looked up from its character codes, without a string per
 * word; any other text goes through `textWords` itself. Words are kept as UTF-16 codes in one
 * pool, sorted from there (`Vocabulary.sort`) without a string per word.
 */
export class WordTable {
  // Slots of two: word number + 1 (0 is empty), then the word's hash, so a probe reads one line.
  private table = int32Array(2 << 12);
  private mask = (1 << 12) - 1;
  private hashes = int32Array(1 << 12);
  // Per word: start in `chars`, then length.
  private spans = uint32Array(2 << 12);
  private chars = uint16Array(1 << 16);
  private used = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Every word, by number, as codes (plain data: they cross threads, and sort without strings, see `Vocabulary.sort`). */
  codes(): WordCodes {
    return { chars: this.chars.subarray(0, this.used), spans: this.spans.subarray(0, 2 * this.count) };
  }

  /** Every word, by number. */
  words(): string[] {
    const words = new Array<string>(this.count);
    for (let id = 0; id < this.count; id++) {
      const start = this.spans[2 * id]!;
      words[id] = codesToString(this.chars, start, start + this.spans[2 * id + 1]!);
    }
    return words;
  }

  /** Whether the text of the last {@link tokenize} call was pure ASCII. */
  ascii = true;

  /**
   * Appends the word numbers of the words of `text` to `out` starting at `at`; returns the
   * new end. `out` must have room for `text.length` more numbers (a word has a character at least).
   * For pure ASCII text, `flags` gets, per word, {@link SPACE_BEFORE_FLAG} and {@link SPACE_AFTER_FLAG}
   * when the text between it and its neighbour (or the end of the text) is exactly one space;
   * for other text, 0.
   */
  tokenize(text: string, out: Uint32Array, at: number, flags: Uint8Array): number {
    const start = at;
    const n = text.length;
    let separatorStart = 0; // where the text since the last word began
    this.ascii = true;
    let i = 0;
    while (i < n) {
      let c = text.charCodeAt(i);
      if (c >= 128) return this.tokenizeFolded(text, out, start, flags);
      let folded = ASCII_FOLD[c]!;
      if (folded === 0) {
        i++;
        continue;
      }
      const wordStart = i;
      const single = i - separatorStart === 1 && text.charCodeAt(separatorStart) === SPACE;
      if (at > start && single) flags[at - 1]! |= SPACE_AFTER_FLAG;
      flags[at] = single ? SPACE_BEFORE_FLAG : 0;
      // The word's own loop: one test per character, hashing as it goes.
      let hash = FNV_BASIS;
      for (;;) {
        hash = Math.imul(hash ^ folded, FNV_PRIME);
        if (++i === n) break;
        c = text.charCodeAt(i);
        if (c >= 128) return this.tokenizeFolded(text, out, start, flags);
        folded = ASCII_FOLD[c]!;
        if (folded === 0) break;
      }
      out[at++] = this.lookupAscii(text, wordStart, i - wordStart, hash);
      separatorStart = i;
    }
    if (at > start && n - separatorStart === 1 && text.charCodeAt(separatorStart) === SPACE) {
      flags[at - 1]! |= SPACE_AFTER_FLAG;
    }
    return at;
  }

  /** The number of a (folded) word, adding it when new. */
  wordNumber(word: string): number {
    return this.sliceNumber(word, 0, word.length);
  }

  /** The number of the text `text[from, to)` as it is (no folding), adding it when new. */
  sliceNumber(text: string, from: number, to: number): number {
    let hash = FNV_BASIS;
    for (let i = from; i < to; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
    const length = to - from;
    const table = this.table;
    let slot = hash & this.mask;
    for (;;) {
      const entry = table[2 * slot]!;
      if (entry === 0) break;
      const id = entry - 1;
      if (table[2 * slot + 1] === hash && this.spans[2 * id + 1] === length) {
        const s = this.spans[2 * id]!;
        let j = 0;
        while (j < length && this.chars[s + j] === text.charCodeAt(from + j)) j++;
        if (j === length) return id;
      }
      slot = (slot + 1) & this.mask;
    }
    const id = this.reserve(slot, hash, length);
    const s = this.spans[2 * id]!;
    for (let j = 0; j < length; j++) this.chars[s + j] = text.charCodeAt(from + j);
    return id;
  }

  private tokenizeFolded(text: string, out: Uint32Array, at: number, flags: Uint8Array): number {
    this.ascii = false;
    for (const word of textWords(text)) {
      flags[at] = 0;
      out[at++] = this.wordNumber(word);
    }
    return at;
  }

  private lookupAscii(text: string, from: number, length: number, hash: number): number {
    const table = this.table;
    const chars = this.chars;
    const spans = this.spans;
    let slot = hash & this.mask;
    for (;;) {
      const entry = table[2 * slot]!;
      if (entry === 0) break;
      const id = entry - 1;
      if (table[2 * slot + 1] === hash && spans[2 * id + 1] === length) {
        const s = spans[2 * id]!;
        let j = 0;
        while (j < length && chars[s + j] === ASCII_FOLD[text.charCodeAt(from + j)]) j++;
        if (j === length) return id;
      }
      slot = (slot + 1) & this.mask;
    }
    const id = this.reserve(slot, hash, length);
    const s = this.spans[2 * id]!;
    for (let j = 0; j < length; j++) this.chars[s + j] = ASCII_FOLD[text.charCodeAt(from + j)]!;
    return id;
  }

  /** Adds a word of `length` codes at `slot`; the caller writes its codes at `starts[id]`. */
  private reserve(slot: number, hash: number, length: number): number {
    const id = this.count++;
    if (id >= this.hashes.length) {
      this.hashes = grow(this.hashes, int32Array(this.hashes.length * 2));
      this.spans = grow(this.spans, uint32Array(this.spans.length * 2));
    }
    if (this.used + length > this.chars.length) {
      let size = this.chars.length * 2;
      while (size < this.used + length) size *= 2;
      this.chars = grow(this.chars, uint16Array(size));
    }
    this.hashes[id] = hash;
    this.spans[2 * id] = this.used;
    this.spans[2 * id + 1] = length;
    this.used += length;
    this.table[2 * slot] = id + 1;
    this.table[2 * slot + 1] = hash;
    if (this.count * 4 > this.table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = this.table.length; // twice the old slot count
    const table = int32Array(slots * 2);
    const mask = slots - 1;
    for (let id = 0; id < this.count; id++) {
      const hash = this.hashes[id]!;
      let slot = hash & mask;
      while (table[2 * slot] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = id + 1;
      table[2 * slot + 1] = hash;
    }
    this.table = table;
    this.mask = mask;
  }
}

function grow<T extends Int32Array | Uint32Array | Uint16Array>(old: T, made: T): T {
  made.set(old);
  return made;
}

function codesToString(codes: Uint16Array, from: number, to: number): string {
  if (to - from <= 4096) return String.fromCharCode.apply(null, codes.subarray(from, to) as unknown as number[]);
  let text = '';
  for (let i = from; i < to; i += 4096) text += String.fromCharCode.apply(null, codes.subarray(i, Math.min(i + 4096, to)) as unknown as number[]);
  return text;
}
