import type { FieldLayout } from './field-layout.js';
import { COUNTS_PER_DOC } from './field-layout.js';
import { LAST, POSITION, type Postings } from './postings.js';
import { int32Array, uint16Array, uint32Array, uint8Array } from './alloc.js';
import { spend } from './work-budget.js';

/**
 * Candidate start positions of a phrase, per candidate slot: `flat[begin[s] .. end[s])`,
 * ascending.
 */
interface Starts {
  flat: Uint16Array;
  begin: Int32Array;
  end: Int32Array;
}

/**
 * Adds to `counts` (six per candidate slot: title, abstract, authors, each whole then prefix)
 * the occurrences of the words `[from, to)` in the candidates. A word counts as whole when it is
 * `exact`, as a prefix otherwise. With `starts`, an occurrence at position `q` counts only when
 * `q - shift` is one of the slot's phrase starts, and is placed in the field of that start.
 */
export function countWordRange(
  postings: Postings,
  layout: FieldLayout,
  from: number,
  to: number,
  exact: number,
  candidates: Uint32Array,
  counts: Uint32Array,
  starts: Starts | null,
  shift: number,
): void {
  const positions = postings.positions;
  const titleLength = layout.titleLength;
  const abstractLength = layout.abstractLength;
  for (let w = from; w < to; w++) {
    if (postings.df[w] === 0) continue;
    const { count, slots, offsets } = postings.collectPairs(w, candidates);
    const prefix = w === exact ? 0 : 1;
    for (let k = 0; k < count; k++) {
      const slot = slots[k]!;
      let off = offsets[k]!;
      const d = candidates[slot]!;
      const t = titleLength[d]!;
      const ta = t + abstractLength[d]!;
      const base = slot * COUNTS_PER_DOC + prefix;
      if (starts === null) {
        for (;;) {
          const v = positions[off++]!;
          const q = v & POSITION;
          counts[base + (q < t ? 0 : q <= ta ? 2 : 4)]!++;
          if ((v & LAST) !== 0) break;
        }
      } else {
        let s = starts.begin[slot]!;
        const e = starts.end[slot]!;
        if (s === e) continue;
        const flat = starts.flat;
        for (;;) {
          const v = positions[off++]!;
          const p = (v & POSITION) - shift;
          while (s < e && flat[s]! < p) s++;
          if (s < e && flat[s] === p) counts[base + (p < t ? 0 : p <= ta ? 2 : 4)]!++;
          if ((v & LAST) !== 0 || s === e) break;
        }
      }
    }
  }
}

/**
 * The occurrences (six counts per candidate) of a phrase: the words `exactWords` in a row,
 * then a word of `[from, to)` (whole when it is `exact`), all inside one field. Every candidate
 * (ascending) must hold every word of `exactWords`.
 */
export function countPhrase(
  postings: Postings,
  layout: FieldLayout,
  exactWords: readonly number[],
  from: number,
  to: number,
  exact: number,
  candidates: Uint32Array,
): Uint32Array {
  const m = candidates.length;
  const positions = postings.positions;
  const counts = uint32Array(m * COUNTS_PER_DOC);
  if (m === 0) return counts;

  // Every position of the first word is a possible start.
  const first = postings.collectPairs(exactWords[0]!, candidates);
  let total = 0;
  for (let k = 0; k < first.count; k++) {
    let off = first.offsets[k]!;
    do total++;
    while ((positions[off++]! & LAST) === 0);
  }
  const starts: Starts = { flat: uint16Array(total), begin: int32Array(m), end: int32Array(m) };
  let at = 0;
  for (let k = 0; k < first.count; k++) {
    const slot = first.slots[k]!;
    let off = first.offsets[k]!;
    starts.begin[slot] = at;
    for (;;) {
      const v = positions[off++]!;
      starts.flat[at++] = v & POSITION;
      if ((v & LAST) !== 0) break;
    }
    starts.end[slot] = at;
  }

  // Each further word keeps the starts it follows at the right distance.
  for (let j = 1; j < exactWords.length; j++) {
    const pairs = postings.collectPairs(exactWords[j]!, candidates);
    spend(m);
    const kept = uint8Array(m);
    for (let k = 0; k < pairs.count; k++) {
      const slot = pairs.slots[k]!;
      kept[slot] = 1;
      let off = pairs.offsets[k]!;
      const b = starts.begin[slot]!;
      const e = starts.end[slot]!;
      let out = b;
      let s = b;
      for (;;) {
        const v = positions[off++]!;
        const p = (v & POSITION) - j;
        while (s < e && starts.flat[s]! < p) s++;
        if (s < e && starts.flat[s] === p) starts.flat[out++] = p;
        if ((v & LAST) !== 0 || s === e) break;
      }
      starts.end[slot] = out;
    }
    for (let slot = 0; slot < m; slot++) if (kept[slot] === 0) starts.end[slot] = starts.begin[slot]!;
  }

  countWordRange(postings, layout, from, to, exact, candidates, counts, starts, exactWords.length);
  return counts;
}
