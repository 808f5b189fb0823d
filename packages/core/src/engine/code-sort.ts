/**
 * Sorting words kept as UTF-16 codes in one pool (a `WordTable`'s or a `Vocabulary`'s), without
 * making a string per word: a build sorts its vocabulary, and the words read backwards, this
 * way. The order is JavaScript's string order (code unit by code unit, a prefix before the
 * longer word), read forwards or backwards.
 *
 * It is a multikey quicksort (Bentley and Sedgewick, "Fast algorithms for sorting and searching
 * strings", 1997): three-way partitions on one code at a time, so a common prefix is read once
 * per partition rather than once per comparison. On a build's words it is several times faster
 * than `Array.prototype.sort` on the strings, and it makes none.
 */

/** Below this many words a range is sorted by insertion. */
const SMALL = 12;
const END = -1;

/**
 * Sorts `ids` (word numbers) in place by their words: word `w` is `chars[spans[2w], spans[2w] + spans[2w + 1])`.
 * `backwards`: by each word read from its last code to its first (the words sharing a suffix are then a range).
 */
export function sortByCodes(ids: Uint32Array, chars: Uint16Array, spans: Uint32Array, backwards: boolean): void {
  new CodeSort(ids, chars, spans, backwards).sort(0, ids.length, 0);
}

class CodeSort {
  constructor(
    private readonly ids: Uint32Array,
    private readonly chars: Uint16Array,
    private readonly spans: Uint32Array,
    private readonly backwards: boolean,
  ) {}

  /** Code `depth` of word `w`, or {@link END} past its end. */
  private code(w: number, depth: number): number {
    const length = this.spans[2 * w + 1]!;
    if (depth >= length) return END;
    const start = this.spans[2 * w]!;
    return this.chars[this.backwards ? start + length - 1 - depth : start + depth]!;
  }

  /** Sorts `ids[lo, hi)`, whose words all share their first `depth` codes. */
  sort(lo: number, hi: number, depth: number): void {
    const ids = this.ids;
    for (;;) {
      if (hi - lo <= SMALL) {
        this.insertionSort(lo, hi, depth);
        return;
      }
      const pivot = this.medianCode(lo, (lo + hi) >>> 1, hi - 1, depth);
      // Three-way partition: [lo, lt) below the pivot, [lt, gt) equal, [gt, hi) above.
      let lt = lo;
      let i = lo;
      let gt = hi;
      while (i < gt) {
        const c = this.code(ids[i]!, depth);
        if (c < pivot) {
          const t = ids[lt]!;
          ids[lt++] = ids[i]!;
          ids[i++] = t;
        } else if (c > pivot) {
          const t = ids[--gt]!;
          ids[gt] = ids[i]!;
          ids[i] = t;
        } else {
          i++;
        }
      }
      // The outer parts by recursion, the equal part (on the next code) by the loop: most of the
      // depth is common prefixes, which then take no stack.
      if (lt - lo > 1) this.sort(lo, lt, depth);
      if (hi - gt > 1) this.sort(gt, hi, depth);
      if (pivot === END) return; // the equal part are words that ended: all equal
      lo = lt;
      hi = gt;
      depth++;
    }
  }

  private medianCode(a: number, b: number, c: number, depth: number): number {
    const x = this.code(this.ids[a]!, depth);
    const y = this.code(this.ids[b]!, depth);
    const z = this.code(this.ids[c]!, depth);
    if (x < y) return y < z ? y : x < z ? z : x;
    return x < z ? x : y < z ? z : y;
  }

  private insertionSort(lo: number, hi: number, depth: number): void {
    const ids = this.ids;
    for (let i = lo + 1; i < hi; i++) {
      const w = ids[i]!;
      let j = i;
      while (j > lo && this.compare(ids[j - 1]!, w, depth) > 0) {
        ids[j] = ids[j - 1]!;
        j--;
      }
      ids[j] = w;
    }
  }

  /** Compares words `a` and `b` from code `depth` on. */
  private compare(a: number, b: number, depth: number): number {
    for (let d = depth; ; d++) {
      const x = this.code(a, d);
      const y = this.code(b, d);
      if (x !== y) return x - y;
      if (x === END) return 0;
    }
  }
}
