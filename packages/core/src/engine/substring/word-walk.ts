import { uint32Array } from '../alloc.js';
import { bitsetWords, popcount32 } from '../bits.js';
import type { IndexData } from '../builder.js';
import { filterByBits, setSize, setToBits, type DocSet } from '../doc-set.js';
import { LOOKUP_COST } from '../phrase-join.js';
import { DENSE, LAST, POSITION, SPACE_AFTER, SPACE_BEFORE } from '../postings.js';
import { spend } from '../work-budget.js';
import { bitsToSet, orInto, union } from './doc-bits.js';
import type { FieldText, TextField } from './field-text.js';
import { foldRiskDocs } from './fold-risk.js';

/**
 * Work units of reading one document's field to check a needle. A unit is about one position
 * read in a walk of the postings (1.2 ns on the machine of docs/performance.md); reading a
 * field costs about 0.7 µs for a title, 3 µs for an abstract there (memory latency, mostly).
 */
export const READ_COST: Record<TextField, number> = { title: 600, abstract: 2500 };

/**
 * Work units of starting the walk of one more word, beyond its positions: its first reads miss
 * the caches (measured at 498k papers: the 11,000 rare words holding `th`, with 3.6 million
 * positions, took 50 ms to walk).
 */
const WORD_COST = 4000;

/**
 * The separators a one-run needle has at its edges (`"e "`: none before its run, `" "` after):
 * the text before the word must end with `before`, the text after it must start with `after`.
 */
export interface EdgeSeparators {
  readonly before: string | null;
  readonly after: string | null;
}

/** What one occurrence says about a document: the needle is there, the text must be read, or neither. */
const YES = 0;
const VERIFY = 1;
const NO = 2;

/**
 * The documents where one of `words` (those a needle's one run of letters and digits matches)
 * stands inside `field` with the needle's `edges` around it.
 *
 * Without edges the run is part of a word, and for ASCII text that is the answer. With edges,
 * an occurrence's "exactly one space before / after" flags prove the separator (`"e "`, `" t"`)
 * or refute it (`"e,"` after one space), and the documents they cannot decide are read. Either
 * way the walk is one pass per word into bitsets, not a join: `"e "` holds thousands of words
 * (every word ending in `e`) with tens of millions of occurrences.
 *
 * The words are walked commonest first, and once the `candidates` not found yet are cheaper
 * to read than the words left to walk, those are read instead: a short needle (`th`) is in
 * tens of thousands of words with millions of positions, but its commonest word (`the`)
 * alone finds it in almost every document.
 */
export function walkWords(
  index: IndexData,
  text: FieldText,
  field: TextField,
  run: string,
  unordered: Uint32Array,
  edges: EdgeSeparators | null,
  read: (docs: Uint32Array) => Uint32Array,
  candidates: DocSet,
): DocSet {
  const { postings, layout, n } = index;
  const { positions } = postings;
  const bits = uint32Array(bitsetWords(n));
  // Documents with an occurrence only the text can decide (edges only; allocated on first use).
  let unsureBits: Uint32Array | null = null;
  const titleLength = layout.titleLength;
  const abstractLength = layout.abstractLength;
  // A common word's set of the field answers a run inside words at once; not one with edges.
  const common = edges === null ? index.commonWords : null;
  const stateOf = edges === null ? null : edgeStates(edges);
  // The common words first: each is one set of the field, read at once, and they find most
  // documents; then the dear words by their walks, dearest first; then the cheap rest.
  const { words, costs, left: total } = walkOrder(unordered, (w) => (common !== null && common.slot(w) >= 0 ? COMMON : wordWalkCost(index, w)), bitsetWords(n));
  let left = total;
  const wanted = setToBits(candidates, n);
  // Counting the documents still to find costs a pass over the bitset: done before a word
  // that costs more than that, or after many cheaper ones.
  const checkCost = bits.length;
  let sinceCheck = 0;
  let rest = n;
  let readTheRest = false;
  /** The best state of word occurrences `off…` (one document's run) inside the field. */
  const best = (d: number, off: number): number => {
    const title = titleLength[d]!;
    const from = field === 'title' ? 0 : title + 1;
    const to = field === 'title' ? title - 1 : title + abstractLength[d]!;
    let state = NO;
    for (;;) {
      const v = positions[off++]!;
      const q = v & POSITION;
      if (q >= from && q <= to) {
        const s = stateOf === null ? YES : stateOf[(v & (SPACE_BEFORE | SPACE_AFTER)) >>> 13]!;
        if (s < state) state = s;
      }
      if ((v & LAST) !== 0) return state;
    }
  };
  const mark = (d: number, state: number) => {
    if (state === YES) bits[d >>> 5]! |= 1 << (d & 31);
    else if (state === VERIFY) (unsureBits ??= uint32Array(bits.length))[d >>> 5]! |= 1 << (d & 31);
  };
  for (let x = 0; x < words.length; x++) {
    const w = words[x]!;
    const df = postings.df[w]!;
    if (df === 0) continue;
    const slot = costs[x] === COMMON ? common!.slot(w) : -1;
    if (slot >= 0) {
      const set = common!.set(field, slot);
      spend(set.kind === 'bits' ? bits.length : setSize(set));
      orInto(bits, set);
      continue;
    }
    const cost = costs[x]!;
    sinceCheck += cost;
    // Right after the common words' sets (which find most documents), and then now and again.
    const afterCommon = x > 0 && costs[x - 1] === COMMON;
    if (x > 0 && (afterCommon || cost >= checkCost || sinceCheck >= 16 * checkCost)) {
      sinceCheck = 0;
      spend(checkCost);
      rest = countMissing(wanted, bits);
      if (rest * READ_COST[field] < left) {
        for (const d of read(missing(wanted, bits))) bits[d >>> 5]! |= 1 << (d & 31);
        readTheRest = true;
        break;
      }
    }
    left -= cost;
    if (x > 0 && rest * LOOKUP_COST < cost) {
      // Few documents are still to find: this word's runs are looked up in those only.
      spend(df + rest * LOOKUP_COST);
      lookUpMissing(index, w, wanted, bits, (d, off) => mark(d, best(d, off)));
      continue;
    }
    spend(cost);
    unsureBits = walkWord(index, w, field, stateOf, bits, unsureBits);
  }
  // Non-ASCII documents found may hold the run only once folded: those with a code point
  // that could do that are read. Oversize documents carry no positions (the field is
  // unknown): all of them are read. So are the candidates whose occurrences could not tell.
  const risky = foldRiskDocs(text, run, n);
  let unsure = union(filterByBits(filterByBits(text.nonAscii, bits), risky), layout.oversize);
  const undecided = unsureBits;
  if (undecided !== null && !readTheRest) {
    for (let i = 0; i < undecided.length; i++) undecided[i] = undecided[i]! & wanted[i]! & ~bits[i]!;
    unsure = union(unsure.kind === 'list' ? unsure.docs : new Uint32Array(0), missing(undecided, new Uint32Array(undecided.length)));
  }
  if (unsure.kind !== 'list' || unsure.docs.length === 0) return bitsToSet(bits);
  for (const d of unsure.docs) bits[d >>> 5]! &= ~(1 << (d & 31));
  for (const d of read(unsure.docs)) bits[d >>> 5]! |= 1 << (d & 31);
  return bitsToSet(bits);
}

/**
 * Walks every occurrence of word `w`: a document where one stands inside `field` (with the
 * edges `stateOf` asks for) is set in `bits`, or in the undecided set when only its text can
 * tell; answers that set (`unsure`, or a new one when the first such document shows up).
 *
 * A function of its own, so that V8 compiles this loop alone on stack replacement: compiled in
 * the middle of the whole walk, the code lacked feedback for what follows the loop, deoptimized
 * there, and was compiled again (about 1 s of compiler threads per 10 s while papers were written).
 */
function walkWord(index: IndexData, w: number, field: TextField, stateOf: Uint8Array | null, bits: Uint32Array, unsure: Uint32Array | null): Uint32Array | null {
  const { postings, layout } = index;
  const { positions } = postings;
  const { titleLength, abstractLength } = layout;
  const df = postings.df[w]!;
  let unsureBits = unsure;
  let off = postings.positionsAt[w]!;
  const dense = postings.dense[w] === DENSE;
  const set = dense ? postings.bitsOf(w) : null;
  const list = dense ? null : postings.docsOf(w);
  let j = dense ? -1 : 0;
  let y = 0;
  for (let visited = 0; ; visited++) {
    let d: number;
    if (dense) {
      while (y === 0 && ++j < set!.length) y = set![j]!;
      if (y === 0) break;
      const t = y & -y;
      y ^= t;
      d = (j << 5) + 31 - Math.clz32(t);
    } else {
      if (j >= df) break;
      d = list![j++]!;
    }
    if ((visited & 4095) === 4095) spend(0);
    const title = titleLength[d]!;
    const from = field === 'title' ? 0 : title + 1;
    const to = field === 'title' ? title - 1 : title + abstractLength[d]!;
    let state = NO;
    for (;;) {
      const v = positions[off++]!;
      const q = v & POSITION;
      if (q >= from && q <= to) {
        const s = stateOf === null ? YES : stateOf[(v & (SPACE_BEFORE | SPACE_AFTER)) >>> 13]!;
        if (s < state) state = s;
      }
      if ((v & LAST) !== 0) break;
    }
    if (state === YES) bits[d >>> 5]! |= 1 << (d & 31);
    else if (state === VERIFY) (unsureBits ??= uint32Array(bits.length))[d >>> 5]! |= 1 << (d & 31);
  }
  return unsureBits;
}

/** About what {@link walkWords} costs at most: the common words' field sets (without edges), the other words' walks. */
export function walkWordsCost(index: IndexData, words: Uint32Array, edges: EdgeSeparators | null): number {
  const { commonWords } = index;
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    total += edges === null && commonWords.slot(w) >= 0 ? bitsetWords(index.n) : wordWalkCost(index, w);
  }
  return total;
}

/** What walking word `w` costs: its start, its documents and its positions. */
function wordWalkCost(index: IndexData, w: number): number {
  const { postings } = index;
  return WORD_COST + postings.df[w]! + postings.positionsAt[w + 1]! - postings.positionsAt[w]!;
}

/**
 * Per value of an occurrence's two flags (`SPACE_BEFORE`, `SPACE_AFTER` shifted to bits 0
 * and 1), what it says about the edges. A flag says the separator is exactly one space: that
 * proves an edge of `" "` and refutes any other; without it the text must be read.
 */
function edgeStates(edges: EdgeSeparators): Uint8Array {
  const one = (wanted: string | null, oneSpace: boolean) => (wanted === null ? YES : oneSpace ? (wanted === ' ' ? YES : NO) : VERIFY);
  const states = new Uint8Array(4);
  for (let flags = 0; flags < 4; flags++) states[flags] = Math.max(one(edges.before, (flags & 1) !== 0), one(edges.after, (flags & 2) !== 0));
  return states;
}

/**
 * Visits the documents of `wanted` not found yet that hold word `w`, with the offset of their
 * run of positions: its documents are read, its positions only there.
 */
function lookUpMissing(index: IndexData, w: number, wanted: Uint32Array, found: Uint32Array, visit: (d: number, off: number) => void): void {
  const { postings } = index;
  const df = postings.df[w]!;
  if (postings.dense[w] === DENSE) {
    const bits = postings.bitsOf(w);
    for (let i = 0; i < bits.length; i++) {
      let v = bits[i]! & wanted[i]! & ~found[i]!;
      while (v !== 0) {
        const t = v & -v;
        v ^= t;
        const d = (i << 5) + 31 - Math.clz32(t);
        visit(d, postings.pairOffset(w, postings.rank(w, d)));
      }
    }
    return;
  }
  const docs = postings.docsOf(w);
  for (let j = 0; j < df; j++) {
    const d = docs[j]!;
    const bit = 1 << (d & 31);
    if ((wanted[d >>> 5]! & ~found[d >>> 5]! & bit) !== 0) visit(d, postings.pairOffset(w, j));
  }
}

/** The cost {@link walkOrder} is given for a common word (its set of the field is read instead of a walk). */
export const COMMON = -1;

/**
 * The order of a walk: the common words (cost {@link COMMON}), then the words dearer than
 * `dear`, dearest first, then the others in word order, with each one's cost and the total
 * cost of the walks. Only the dear words are sorted: a suffix such as `e` has tens of
 * thousands of cheap words, and sorting them all took 12 ms of a 70 ms query; their order
 * does not matter (each is walked, looked up, or read with the rest), and in word order
 * their positions are read in the order they are stored.
 */
export function walkOrder(unordered: Uint32Array, cost: (w: number) => number, dear: number): { words: Uint32Array; costs: Float64Array; left: number } {
  const m = unordered.length;
  const all = new Float64Array(m);
  let left = 0;
  let firsts = 0;
  for (let i = 0; i < m; i++) {
    const c = cost(unordered[i]!);
    all[i] = c;
    if (c === COMMON || c >= dear) firsts++;
    if (c !== COMMON) left += c;
  }
  const top = Uint32Array.from({ length: firsts });
  for (let i = 0, k = 0; i < m; i++) if (all[i] === COMMON || all[i]! >= dear) top[k++] = i;
  // Common words first (their cost as the largest), then by cost descending, ties by word.
  const key = (i: number) => (all[i] === COMMON ? Infinity : all[i]!);
  top.sort((a, b) => key(b) - key(a) || a - b);
  const words = new Uint32Array(m);
  const costs = new Float64Array(m);
  let k = 0;
  for (let j = 0; j < top.length; j++, k++) {
    words[k] = unordered[top[j]!]!;
    costs[k] = all[top[j]!]!;
  }
  for (let i = 0; i < m; i++) {
    if (all[i] === COMMON || all[i]! >= dear) continue;
    words[k] = unordered[i]!;
    costs[k++] = all[i]!;
  }
  return { words, costs, left };
}

/** How many documents of `wanted` are not in `found`. */
function countMissing(wanted: Uint32Array, found: Uint32Array): number {
  let count = 0;
  for (let i = 0; i < wanted.length; i++) {
    const v = wanted[i]! & ~found[i]!;
    if (v !== 0) count += popcount32(v);
  }
  return count;
}

/** The documents of `wanted` not in `found`, ascending. */
function missing(wanted: Uint32Array, found: Uint32Array): Uint32Array {
  const count = countMissing(wanted, found);
  const out = uint32Array(count);
  let k = 0;
  for (let i = 0; i < wanted.length && k < count; i++) {
    let v = wanted[i]! & ~found[i]!;
    while (v !== 0) {
      const t = v & -v;
      out[k++] = (i << 5) + 31 - Math.clz32(t);
      v ^= t;
    }
  }
  return out;
}
