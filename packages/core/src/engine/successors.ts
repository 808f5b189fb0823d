/**
 * What follows each occurrence of the commonest words: one byte per occurrence, beside the
 * word's positions (entry `i` of its run of codes is the successor of its position entry `i`).
 *
 * Why: a phrase of two common words (`"of the"`, `"in a"`) otherwise reads every position of
 * both sides, millions each, and merges them document by document. With the successor of
 * every `of`, the phrase is one sequential read of `of`'s positions and a table lookup per
 * occurrence; only the few occurrences the byte cannot decide are checked with positions.
 *
 * The code of a word keeps the vocabulary's order, so a prefix's words (a range) are a range
 * of codes: the `FREQUENT` commonest words each have their own code (odd, `2i + 1` for
 * `frequent[i]`), and the words between two of them share one (even, `2i`: those before
 * `frequent[i]`). A code is then certainly in a set of words (all its words are), certainly
 * not (none is) or maybe (some are: only those occurrences are checked). The top bit of the
 * byte is the next word's "one space after" flag (a needle's separator after the second word).
 */

/** Words with their own code: codes 0…2·FREQUENT, and {@link NONE}, fit in 7 bits. */
export const FREQUENT = 63;
/** The code of "no next word in this field" (the last word of a field, or an oversize document). */
export const NONE = 0x7f;
/** Mask of the code in a successor byte. */
export const CODE = 0x7f;
/** The successor byte's flag: the separator after the next word is exactly `" "`. */
export const NEXT_SPACE_AFTER = 0x80;
/**
 * Words with at least this many occurrences per document, on average, get successor codes
 * (`the`, `of`, `a`, `and`, `to`, `in`, `we`, `for`, `is`: about 30 bytes per paper on real
 * abstracts, within the memory budget; rarer words are cheap to join anyway).
 */
export const ANCHOR_OCCURRENCES_PER_DOC = 1.5;
/** At most this many anchors (a tiny corpus must not give every word a stream). */
export const MAX_ANCHORS = 16;

/** Class of a code for a set of words (see {@link Successors.classify}). */
export const CODE_NO = 0;
export const CODE_YES = 1;
export const CODE_MAYBE = 2;

/** How a set of words reads in successor codes: per code its class, and the words of the "maybe" codes. */
export interface CodeClasses {
  readonly classes: Uint8Array;
  /** The words of the set whose code is "maybe": these must be checked with positions. */
  readonly maybeWords: Uint32Array;
}

export class Successors {
  constructor(
    /** The words with their own code, ascending (word numbers). */
    readonly frequent: Uint32Array,
    /** The words with successor codes, ascending. */
    readonly anchors: Uint32Array,
    /** Offset of each anchor's codes in `codes` (one more entry at the end). */
    readonly codesAt: Uint32Array,
    /** Per occurrence of an anchor, in its positions' order: code | {@link NEXT_SPACE_AFTER}. */
    readonly codes: Uint8Array,
  ) {}

  /** The offset of word `w`'s codes in `codes`, or -1 when it is not an anchor. */
  codesOf(w: number): number {
    const anchors = this.anchors;
    for (let i = 0; i < anchors.length; i++) if (anchors[i] === w) return this.codesAt[i]!;
    return -1;
  }

  /** The code of word `w`: its own, or that of the gap it is in. */
  codeOf(w: number): number {
    const f = this.frequent;
    let lo = 0;
    let hi = f.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (f[mid]! < w) lo = mid + 1;
      else hi = mid;
    }
    return lo < f.length && f[lo] === w ? 2 * lo + 1 : 2 * lo;
  }

  /** Number of word numbers sharing code `c` (one for an own code, the gap's size for a gap), in a vocabulary of `v` words. */
  private codeSize(c: number, v: number): number {
    if ((c & 1) === 1) return 1;
    const i = c >>> 1;
    const from = i === 0 ? 0 : this.frequent[i - 1]! + 1;
    const to = i < this.frequent.length ? this.frequent[i]! : v;
    return to - from;
  }

  /**
   * Per code, whether its words are all in `words`, none, or some (those are the `maybeWords`).
   * Code `maybe` (if not negative) is "maybe" whatever it holds: a phrase counts its last word
   * whole or as a prefix, which a shared code cannot tell.
   */
  classify(words: Uint32Array, vocabularySize: number, maybe = -1): CodeClasses {
    const counts = new Uint32Array(NONE + 1);
    for (let i = 0; i < words.length; i++) counts[this.codeOf(words[i]!)]!++;
    const classes = new Uint8Array(NONE + 1);
    let maybeCount = 0;
    for (let c = 0; c < NONE; c++) {
      const count = counts[c]!;
      if (count === 0) continue;
      if (count === this.codeSize(c, vocabularySize) && c !== maybe) classes[c] = CODE_YES;
      else {
        classes[c] = CODE_MAYBE;
        maybeCount += count;
      }
    }
    const maybeWords = new Uint32Array(maybeCount);
    let k = 0;
    for (let i = 0; i < words.length; i++) if (classes[this.codeOf(words[i]!)] === CODE_MAYBE) maybeWords[k++] = words[i]!;
    maybeWords.sort();
    return { classes, maybeWords };
  }
}

/**
 * Chooses the anchors and the frequent words from the words' occurrence counts (`tf`, by
 * word number) in a catalogue of `n` documents.
 */
export function successorPlan(tf: Uint32Array, n: number): { frequent: Uint32Array; anchors: Uint32Array; codesAt: Uint32Array } {
  // The FREQUENT commonest words, by one pass keeping them sorted by count (a full sort of
  // a million words would cost the build about a second).
  const top: number[] = [];
  for (let w = 0; w < tf.length; w++) {
    const count = tf[w]!;
    if (count === 0 || (top.length === FREQUENT && count <= tf[top[FREQUENT - 1]!]!)) continue;
    let i = top.length < FREQUENT ? top.length : FREQUENT - 1;
    while (i > 0 && tf[top[i - 1]!]! < count) i--;
    top.splice(i, 0, w);
    if (top.length > FREQUENT) top.pop();
  }
  const frequent = Uint32Array.from(top).sort();
  const anchors = Uint32Array.from(top.slice(0, MAX_ANCHORS).filter((w) => tf[w]! >= ANCHOR_OCCURRENCES_PER_DOC * n)).sort();
  const codesAt = new Uint32Array(anchors.length + 1);
  for (let i = 0; i < anchors.length; i++) codesAt[i + 1] = codesAt[i]! + tf[anchors[i]!]!;
  return { frequent, anchors, codesAt };
}
