/**
 * The sorted vocabulary of an index: every distinct folded word, sorted by UTF-16 code unit,
 * so the words starting with a prefix are one contiguous range of word numbers.
 */
export class Vocabulary {
  constructor(readonly words: readonly string[]) {}

  get size(): number {
    return this.words.length;
  }

  /** The number of `word`, or -1 when it is not in the vocabulary. */
  find(word: string): number {
    const i = this.lowerBound(word);
    return i < this.words.length && this.words[i] === word ? i : -1;
  }

  /** The range `[from, to)` of the words that start with `prefix` (the word itself included). */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    // No word holds U+FFFF (not a letter or digit), so every word with the prefix sorts below this.
    const to = this.lowerBound(`${prefix}\uffff`, from);
    return [from, to];
  }

  private lowerBound(word: string, from = 0): number {
    const words = this.words;
    let lo = from;
    let hi = words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]! < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
