import { fieldScore, RELEVANCE, type FieldLengths, type Occurrences } from '@paperlist/core';
import { kthSmallest } from './quickselect.js';
import type { PaperFacts, TermPostings } from './term-postings.js';
import type { Counts } from './posting-merge.js';

/** The papers matching every term: their ordinals, and where each sits in each term's lists. */
export interface Matches {
  ords: Int32Array;
  /** Per term (in query order): the index of each match in that term's arrays. */
  at: Int32Array[];
}

/** Intersects sets of ordinals (each ascending): the smallest drives, the others are searched by galloping. */
export function intersect(terms: readonly { ords: Int32Array }[]): Matches {
  const order = terms.map((_, i) => i).sort((a, b) => terms[a]!.ords.length - terms[b]!.ords.length);
  const driver = terms[order[0]!]!.ords;
  let keep: Int32Array = new Int32Array(driver.length);
  for (let i = 0; i < keep.length; i++) keep[i] = i;
  let kept = keep.length;
  const at: Int32Array[] = new Array<Int32Array>(terms.length);
  at[order[0]!] = keep;
  const positions: Int32Array[] = [];
  for (let k = 1; k < order.length; k++) {
    const ords = terms[order[k]!]!.ords;
    const found = new Int32Array(kept);
    const survivors = new Int32Array(kept);
    let n = 0;
    let lo = 0;
    for (let i = 0; i < kept && lo < ords.length; i++) {
      const ord = driver[keep[i]!]!;
      // Gallop to the first entry >= ord, then binary search in the bracket.
      let step = 1;
      let hi = lo;
      while (hi < ords.length && ords[hi]! < ord) {
        lo = hi + 1;
        hi += step;
        step *= 2;
      }
      if (hi > ords.length) hi = ords.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ords[mid]! < ord) lo = mid + 1;
        else hi = mid;
      }
      if (lo < ords.length && ords[lo] === ord) {
        survivors[n] = i;
        found[n++] = lo;
      }
    }
    // Earlier terms' positions follow the survivors.
    for (let p = 0; p < positions.length; p++) positions[p] = pick(positions[p]!, survivors, n);
    keep = pick(keep, survivors, n);
    kept = n;
    positions.push(found.subarray(0, n));
    at[order[k]!] = positions[positions.length - 1]!;
  }
  // The driver's own positions, and the others' as last narrowed.
  at[order[0]!] = keep.subarray(0, kept);
  for (let k = 1; k < order.length; k++) at[order[k]!] = positions[k - 1]!;
  const ords = new Int32Array(kept);
  for (let i = 0; i < kept; i++) ords[i] = driver[keep[i]!]!;
  return { ords, at };
}

function pick(values: Int32Array, indexes: Int32Array, n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = values[indexes[i]!]!;
  return out;
}

/** What scoring needs besides the lists: each term's weight and prefix weight, and the mean field lengths. */
export interface TermWeights {
  idfs: readonly number[];
  prefixWeights: readonly number[];
  averages: FieldLengths;
}

/**
 * Each match's relevance, with the core's own `fieldScore` and the operations of its
 * `termScore` in the same order (so the doubles, and the order, are the memory source's).
 */
export function scoreMatches(terms: readonly TermPostings[], matches: Matches, weights: TermWeights, facts: PaperFacts): Float64Array {
  const { ords, at } = matches;
  const scores = new Float64Array(ords.length);
  const found: Occurrences = { whole: 0, prefix: 0 };
  const occurrences = (all: Counts, whole: Counts | null, i: number): Occurrences => {
    const w = whole === null ? 0 : whole[i]!;
    found.whole = w;
    found.prefix = all[i]! - w;
    return found;
  };
  const { averages } = weights;
  for (let t = 0; t < terms.length; t++) {
    const idf = weights.idfs[t]!;
    // A term of weight 0 adds exactly +0 to every score.
    if (idf === 0) continue;
    const term = terms[t]!;
    const positions = at[t]!;
    const prefixWeight = weights.prefixWeights[t]!;
    for (let k = 0; k < ords.length; k++) {
      const i = positions[k]!;
      const ord = ords[k]!;
      const fields =
        RELEVANCE.titleWeight * fieldScore(occurrences(term.titleAll, term.titleWhole, i), facts.titleLength[ord]!, averages.title, prefixWeight) +
        RELEVANCE.abstractWeight * fieldScore(occurrences(term.abstractAll, term.abstractWhole, i), facts.abstractLength[ord]!, averages.abstract, prefixWeight) +
        RELEVANCE.authorsWeight * fieldScore(occurrences(term.authorsAll, term.authorsWhole, i), facts.authorsLength[ord]!, averages.authors, prefixWeight);
      scores[k] = scores[k]! + idf * (fields + 0);
    }
  }
  return scores;
}

/**
 * The matches that can be on the first `k` places by score: every one scoring at least the
 * k-th best score (ties included, so the catalogue order can break them). Indexes into `scores`.
 */
export function bestCandidates(scores: Float64Array, k: number): Int32Array {
  const n = scores.length;
  if (k >= n) return Int32Array.from({ length: n }, (_, i) => i);
  // The k-th largest is the (n - k + 1)-th smallest.
  const threshold = kthSmallest(Float64Array.from(scores), n - k + 1);
  let count = 0;
  for (let i = 0; i < n; i++) if (scores[i]! >= threshold) count++;
  const out = new Int32Array(count);
  let at = 0;
  for (let i = 0; i < n; i++) if (scores[i]! >= threshold) out[at++] = i;
  return out;
}
