import { uint16Array, uint32Array } from './alloc.js';
import { sortByCodes } from './code-sort.js';
import type { WordCodes } from './word-table.js';

/**
 * The sorted vocabulary of an index: every distinct folded word, sorted by UTF-16 code unit,
 * so the words starting with a prefix are one contiguous range of word numbers. The words
 * live in two typed arrays (their code units end to end, and where each starts), not as
 * strings, so the vocabulary can be shared between threads and written to a snapshot.
 */
export class Vocabulary {
  constructor(
    /** Every word's UTF-16 code units, in word order. */
    readonly chars: Uint16Array,
    /** Where word `w` starts in `chars`; `starts[size]` is the end. */
    readonly starts: Uint32Array,
  ) {}

  /**
   * The vocabulary of distinct words given as codes (a `WordTable`'s: the pool holds those words
   * and nothing else), and `renumber`: given word number → its number in the vocabulary. No
   * string is made.
   */
  static sort(words: WordCodes): { vocabulary: Vocabulary; renumber: Uint32Array } {
    const count = words.spans.length >>> 1;
    const ids = uint32Array(count);
    for (let w = 0; w < count; w++) ids[w] = w;
    sortByCodes(ids, words.chars, words.spans, false);
    const chars = uint16Array(words.chars.length);
    const starts = uint32Array(count + 1);
    const renumber = uint32Array(count);
    let at = 0;
    for (let r = 0; r < count; r++) {
      const w = ids[r]!;
      renumber[w] = r;
      starts[r] = at;
      const from = words.spans[2 * w]!;
      const length = words.spans[2 * w + 1]!;
      for (let i = 0; i < length; i++) chars[at + i] = words.chars[from + i]!;
      at += length;
    }
    starts[count] = at;
    return { vocabulary: new Vocabulary(chars, starts), renumber };
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** Word number `w` as a string. */
  word(w: number): string {
    const from = this.starts[w]!;
    const to = this.starts[w + 1]!;
    let text = '';
    for (let i = from; i < to; i += 4096) {
      text += String.fromCharCode.apply(null, this.chars.subarray(i, Math.min(i + 4096, to)) as unknown as number[]);
    }
    return text;
  }

  /** Length of word `w` in code units. */
  length(w: number): number {
    return this.starts[w + 1]! - this.starts[w]!;
  }

  /** Whether word `w` is exactly `word`. */
  is(w: number, word: string): boolean {
    const from = this.starts[w]!;
    if (this.starts[w + 1]! - from !== word.length) return false;
    for (let i = 0; i < word.length; i++) if (this.chars[from + i] !== word.charCodeAt(i)) return false;
    return true;
  }

  /** The number of `word`, or -1 when it is not in the vocabulary. */
  find(word: string): number {
    const i = this.lowerBound(word, 0, false);
    return i < this.size && this.is(i, word) ? i : -1;
  }

  /** The range `[from, to)` of the words that start with `prefix` (the word itself included). */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix, 0, false);
    return [from, this.lowerBound(prefix, from, true)];
  }

  /**
   * The first word `>= key` in code unit order; with `pastPrefix`, the first word that is
   * greater than `key` and does not start with it (the end of the prefix's range).
   */
  private lowerBound(key: string, from: number, pastPrefix: boolean): number {
    let lo = from;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.compare(mid, key);
      if (c < 0 || (pastPrefix && c <= PREFIXED)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Compares word `w` with `key`: negative when it sorts before, {@link PREFIXED} when `key`
   * is a proper prefix of it, 0 when equal, other positive values when it sorts after.
   */
  private compare(w: number, key: string): number {
    const from = this.starts[w]!;
    const length = this.starts[w + 1]! - from;
    const chars = this.chars;
    const common = Math.min(length, key.length);
    for (let i = 0; i < common; i++) {
      const d = chars[from + i]! - key.charCodeAt(i);
      if (d !== 0) return d < 0 ? -1 : 2;
    }
    if (length === key.length) return 0;
    return length < key.length ? -1 : PREFIXED;
  }
}

/** {@link Vocabulary.compare}: the key is a proper prefix of the word. */
const PREFIXED = 1;
