import { paperWords } from '../search/paper-words.js';
import { prefixWeightOf, RELEVANCE, termScore, termWeight, type FieldLengths } from '../search/relevance.js';
import { termOccurrences, type TermOccurrences } from '../search/term-occurrences.js';
import type { SearchTerm } from '../source.js';
import { float64Array, uint32Array, uint8Array } from './alloc.js';
import type { IndexData } from './builder.js';
import { gallop, intersectLists, setSize, type DocSet } from './doc-set.js';
import { COUNTS_PER_DOC } from './field-layout.js';
import type { DocOrder } from './orders.js';
import { addOccurrence, hasHead, OVERFLOW, unpack } from './packed-counts.js';
import { DENSE, GROUPED, LAST, POSITION, SKIP_SHIFT, skipRuns, type Postings } from './postings.js';
import { popcount32 } from './bits.js';
import type { TermMatch } from './term-match.js';
import { topSlots } from './window.js';
import { spend } from './work-budget.js';

/** Zeroed scratch arrays lent by the engine; returned zeroed. */
export interface Scratch {
  /** One number per document. */
  counts(): Uint32Array;
  /** One bit per document. */
  bits(): Uint32Array;
}

/**
 * The collection statistics a relevance window scores with: each term's weight (from its
 * document frequency over the whole catalogue served) and the mean field lengths. A lone index
 * takes its own; a catalogue of several segments sums them over the live documents of all.
 */
export interface RelevanceWeights {
  /** Per query term, `termWeight(N, df)`. */
  readonly idfs: readonly number[];
  readonly averages: FieldLengths;
}

/** A relevance window: its documents, best first, and their scores. */
export interface RankedWindow {
  docs: Uint32Array;
  scores: Float64Array;
}

/** A term's occurrences in each matched document (slot = index in the matched list). */
interface TermCounts {
  /** The term's weight (see `termWeight`): 0 for a term matching most of the catalogue, which then adds nothing. */
  idf: number;
  /** The weight is 0: nothing was counted, and the term is skipped. */
  silent: boolean;
  /** Weight of prefix-only occurrences (0 for a short last word: see `prefixWeightOf`). */
  prefixWeight: number;
  /** Single words: packed counts per slot (see packed-counts.ts)… */
  packed: Uint32Array | null;
  /** …and exact counts where they did not fit, or for oversize documents. */
  exact: Map<number, TermOccurrences>;
  /** Phrases: six counts per slot. */
  six: Uint32Array | null;
  /** Slots whose `arxiv_id` is the term. */
  arxiv: Uint8Array | null;
}

/**
 * The window `[offset, end)` of the matched documents `docs` (ascending; `set` is the same
 * set) by relevance: score descending, ties in `then` order. Every score is the reference
 * `termScore` of each term in query order, on the same counts, lengths, averages and
 * document frequencies as the scan source, so scores and order are identical.
 *
 * Pruning, exact: a document where no term occurs in the title or authors (nor as its arXiv
 * id) scores at most Σ idf × (k1 + 1) (only the abstract counts). The others are scored first;
 * if the `end`-th best of them scores above that bound, no other document can enter the
 * window and they are not scored. Otherwise every document is.
 */
export function relevanceWindow(
  index: IndexData,
  set: DocSet,
  docs: Uint32Array,
  terms: readonly SearchTerm[],
  matches: readonly TermMatch[],
  then: DocOrder,
  offset: number,
  end: number,
  scratch: Scratch,
  weights: RelevanceWeights,
): RankedWindow {
  const m = docs.length;
  const counts = terms.map((term, t) => termCounts(index, set, docs, term, matches[t]!, weights.idfs[t]!, scratch));
  const { layout } = index;
  const found: TermOccurrences = {
    title: { whole: 0, prefix: 0 },
    abstract: { whole: 0, prefix: 0 },
    authors: { whole: 0, prefix: 0 },
    arxivId: false,
  };
  const lengths: FieldLengths = { title: 0, abstract: 0, authors: 0 };
  const { averages } = weights;
  const { titleLength, abstractLength, authorsLength } = layout;
  const oversize = layout.oversize.length > 0;

  const score = (s: number): number => {
    const d = docs[s]!;
    if (oversize) layout.lengthsOf(d, lengths);
    else {
      lengths.title = titleLength[d]!;
      lengths.abstract = abstractLength[d]!;
      lengths.authors = authorsLength[d]!;
    }
    let total = 0;
    for (const c of counts) {
      if (c.silent) continue;
      const arxiv = c.arxiv !== null && c.arxiv[s] === 1;
      // A term absent from the document adds exactly 0: skip its arithmetic (most terms of a
      // long query are absent from most documents).
      if (!arxiv && c.six === null && c.packed![s] === 0 && (c.exact.size === 0 || !c.exact.has(s))) continue;
      if (c.six !== null) {
        const at = s * COUNTS_PER_DOC;
        found.title.whole = c.six[at]!;
        found.title.prefix = c.six[at + 1]!;
        found.abstract.whole = c.six[at + 2]!;
        found.abstract.prefix = c.six[at + 3]!;
        found.authors.whole = c.six[at + 4]!;
        found.authors.prefix = c.six[at + 5]!;
      } else {
        const packed = c.packed![s]!;
        const exact = (packed & OVERFLOW) !== 0 || c.exact.size > 0 ? c.exact.get(s) : undefined;
        if (exact !== undefined) {
          found.title.whole = exact.title.whole;
          found.title.prefix = exact.title.prefix;
          found.abstract.whole = exact.abstract.whole;
          found.abstract.prefix = exact.abstract.prefix;
          found.authors.whole = exact.authors.whole;
          found.authors.prefix = exact.authors.prefix;
        } else unpack(packed, found);
      }
      found.arxivId = arxiv;
      total += termScore(c.idf, found, lengths, averages, c.prefixWeight);
    }
    return total;
  };

  // Documents with a title or authors occurrence (or an arXiv id match) of some term.
  spend(m * counts.length);
  const head = uint8Array(m);
  let heads = 0;
  for (const c of counts) {
    if (c.silent) continue;
    for (let s = 0; s < m; s++) {
      if (head[s] === 1) continue;
      let h: boolean;
      if (c.six !== null) {
        const at = s * COUNTS_PER_DOC;
        h = c.six[at]! + c.six[at + 1]! + c.six[at + 4]! + c.six[at + 5]! > 0;
      } else {
        const packed = c.packed![s]!;
        h = hasHead(packed) || (packed & OVERFLOW) !== 0 || c.exact.has(s);
      }
      if (h || (c.arxiv !== null && c.arxiv[s] === 1)) {
        head[s] = 1;
        heads++;
      }
    }
  }

  if (heads >= end && heads < m) {
    spend(heads * counts.length * 4);
    const slots = uint32Array(heads);
    for (let s = 0, k = 0; s < m; s++) if (head[s] === 1) slots[k++] = s;
    const scores = float64Array(heads);
    for (let i = 0; i < heads; i++) scores[i] = score(slots[i]!);
    const headDocs = uint32Array(heads);
    for (let i = 0; i < heads; i++) headDocs[i] = docs[slots[i]!]!;
    const top = topSlots(scores, then.keys(headDocs), end);
    const threshold = scores[top[end - 1]!]!;
    let bound = 0;
    for (const c of counts) bound += c.idf * (RELEVANCE.k1 + 1) * RELEVANCE.abstractWeight;
    if (threshold > bound * (1 + 1e-9)) return windowOf(top, headDocs, scores, offset, end);
  }
  spend(m * counts.length * 4);
  const scores = float64Array(m);
  for (let s = 0; s < m; s++) scores[s] = score(s);
  return windowOf(topSlots(scores, then.keys(docs), end), docs, scores, offset, end);
}

function windowOf(top: Int32Array, docs: Uint32Array, scores: Float64Array, offset: number, end: number): RankedWindow {
  const length = Math.max(0, Math.min(end, top.length) - offset);
  const out = uint32Array(length);
  const outScores = new Float64Array(length);
  for (let i = 0; i < length; i++) {
    out[i] = docs[top[offset + i]!]!;
    outScores[i] = scores[top[offset + i]!]!;
  }
  return { docs: out, scores: outScores };
}

/** The weights of `matches` in a lone index: its own size and each term's document frequency. */
export function ownWeights(index: IndexData, matches: readonly TermMatch[]): RelevanceWeights {
  return { idfs: matches.map((m) => termWeight(index.n, setSize(m.set))), averages: index.layout.averages };
}

function termCounts(index: IndexData, set: DocSet, docs: Uint32Array, term: SearchTerm, match: TermMatch, idf: number, scratch: Scratch): TermCounts {
  const m = docs.length;
  const counts: TermCounts = {
    idf,
    silent: false,
    prefixWeight: prefixWeightOf(term),
    packed: null,
    exact: new Map(),
    six: null,
    arxiv: null,
  };
  if (counts.idf === 0) {
    // It adds exactly 0 to every score (0 × anything): its occurrences are not read.
    counts.silent = true;
    return counts;
  }
  if (match.arxivDocs.length > 0) {
    counts.arxiv = uint8Array(m);
    let s = 0;
    for (const d of match.arxivDocs) {
      s = gallop(docs, d, s, m);
      if (s < m && docs[s] === d) counts.arxiv[s] = 1;
    }
  }
  if (match.phraseDocs !== null) {
    counts.six = phraseCounts(match, docs);
    return counts;
  }
  // A short word's prefix occurrences do not score: only its own positions are read.
  const [from, to] = counts.prefixWeight === 0 ? (match.exact >= 0 ? [match.exact, match.exact + 1] : [0, 0]) : [match.from, match.to];
  // The matched documents are a subset of the term's own; of the same size, they are all of
  // them, and every pair of the term's words is a matched one (a query of one word, say).
  counts.packed = packedCounts(index, setSize(match.set) === m ? null : set, docs, from, to, match.exact, scratch);
  // Exact counts where the packed ones overflowed (from the positions), and for oversize
  // documents (no positions: from the decoded paper).
  for (let s = 0; s < m; s++) {
    if ((counts.packed[s]! & OVERFLOW) !== 0) counts.exact.set(s, countFromPositions(index, docs[s]!, from, to, match.exact));
  }
  if (index.layout.oversize.length > 0) {
    for (const d of intersectLists(index.layout.oversize, docs)) {
      const paper = index.store.paper(d);
      counts.exact.set(gallop(docs, d, 0, m), termOccurrences(paperWords(paper), paper.arxiv_id, term));
    }
  }
  return counts;
}

/**
 * Packed counts (per slot of `docs`) of the words `[from, to)`, whole for `exact`: each word's
 * pairs are read in order and added into a document-indexed scratch array (small and hit in
 * order, unlike per-slot arrays), then gathered per slot. `set` is the matched set `docs`, or
 * null when every document holding one of the words is in it (no membership to test).
 */
function packedCounts(index: IndexData, set: DocSet | null, docs: Uint32Array, from: number, to: number, exact: number, scratch: Scratch): Uint32Array {
  const { postings, layout } = index;
  const { positions } = postings;
  const { titleLength, abstractLength } = layout;
  const m = docs.length;
  const acc = scratch.counts();
  // Membership in the matched set: its own bitset, or the scratch one, or none when every pair
  // is a matched one (`set` null, or every document).
  let member: Uint32Array | null = null;
  let marked = false;
  if (set?.kind === 'bits') member = set.bits;
  else if (set?.kind === 'list') {
    member = scratch.bits();
    for (let s = 0; s < m; s++) member[docs[s]! >>> 5]! |= 1 << (docs[s]! & 31);
    marked = true;
  }
  try {
    for (let w = from; w < to; w++) {
      const df = postings.df[w]!;
      if (df === 0) continue;
      const prefix = w === exact ? 0 : 1;
      if (postings.dense[w] === 0 && m * 16 >= df) {
        // A stretch of list words read as one (see addListStretch): most words of a prefix's
        // range are rare, and reading them one by one cost more than their pairs. The exact word
        // (whole occurrences) is the first of its range, so it is a stretch of its own.
        let end = w + 1;
        if (w !== exact) while (end < to && postings.dense[end] === 0 && m * 16 >= postings.df[end]!) end++;
        addListStretch(postings, w, end, member, titleLength, abstractLength, acc, prefix);
        w = end - 1;
        continue;
      }
      spend(m * 16 < df ? m * 36 : df + postings.positionsAt[w + 1]! - postings.positionsAt[w]!);
      if (m * 16 < df) {
        // Few matched documents: look each one up in the word's postings.
        const bits = postings.dense[w] === DENSE ? postings.bitsOf(w) : null;
        let j = 0;
        for (let s = 0; s < m; s++) {
          const d = docs[s]!;
          let pair: number;
          if (bits !== null) {
            if ((bits[d >>> 5]! & (1 << (d & 31))) === 0) continue;
            pair = postings.rank(w, d);
          } else {
            pair = postings.seek(w, d, j);
            if (pair < 0) {
              j = ~pair;
              if (j >= df) break;
              continue;
            }
            j = pair;
          }
          addRun(acc, d, positions, postings.pairOffset(w, pair), titleLength[d]!, titleLength[d]! + abstractLength[d]!, prefix);
        }
        continue;
      }
      if (postings.dense[w] === DENSE) addDenseMembers(postings, w, member, titleLength, abstractLength, acc, prefix);
      else addListMembers(postings, w, member, titleLength, abstractLength, acc, prefix);
    }
    const packed = uint32Array(m);
    for (let s = 0; s < m; s++) {
      const d = docs[s]!;
      packed[s] = acc[d]!;
      acc[d] = 0;
    }
    return packed;
  } finally {
    if (marked) for (let s = 0; s < m; s++) member![docs[s]! >>> 5] = 0;
  }
}

/** Adds to `acc[d]` the run of positions at `off`; returns the offset after the run. */
function addRun(acc: Uint32Array, d: number, positions: Uint16Array, off: number, title: number, titleAbstract: number, prefix: number): number {
  let a = acc[d]!;
  for (;;) {
    const p = positions[off++]!;
    const q = p & POSITION;
    a = addOccurrence(a, (q < title ? 0 : q <= titleAbstract ? 2 : 4) + prefix);
    if ((p & LAST) !== 0) break;
  }
  acc[d] = a;
  return off;
}

/**
 * Adds the pairs of dense word `w` whose document is in `member` (null: every document). The
 * matched documents are the set bits of both bitsets, word by word; a document's pair number is
 * the word's set bits before it, and its positions are reached from the last ones read by
 * counting run ends (one predictable loop, not a branch per skipped document), or from the skip
 * entry of its block of 32 pairs when that is nearer.
 */
function addDenseMembers(postings: Postings, w: number, member: Uint32Array | null, titleLength: ArrayLike<number>, abstractLength: ArrayLike<number>, acc: Uint32Array, prefix: number): void {
  const bits = postings.bitsOf(w);
  const { positions } = postings;
  let off = postings.positionsAt[w]!;
  let at = 0; // the pair whose run starts at `off`
  let before = 0;
  for (let i = 0; i < bits.length; i++) {
    if ((i & 127) === 0) spend(0);
    const all = bits[i]!;
    let v = member === null ? all : all & member[i]!;
    // Every document of the bitset word matched: its pairs are consecutive, no count needed.
    const whole = v === all;
    let next = before;
    while (v !== 0) {
      const t = v & -v;
      v ^= t;
      const d = (i << 5) + 31 - Math.clz32(t);
      const pair = whole ? next++ : before + popcount32(all & (t - 1));
      if (pair >>> SKIP_SHIFT > at >>> SKIP_SHIFT) {
        off = postings.blockOffset(w, pair >>> SKIP_SHIFT);
        at = pair & ~((1 << SKIP_SHIFT) - 1);
      }
      off = skipRuns(positions, off, pair - at);
      const title = titleLength[d]!;
      off = addRun(acc, d, positions, off, title, title + abstractLength[d]!, prefix);
      at = pair + 1;
    }
    if (all !== 0) before += popcount32(all);
  }
}

/**
 * Adds the pairs of the list words `[from, to)` whose document is in `member` (null: every
 * document), read as one stream: list words numbered one after the other have their documents
 * side by side in `listDocs` and their positions in `positions` (token-layout.ts lays both out
 * in word order, dense and grouped words having no documents there), so a stretch is one loop over
 * documents with no start-up per word, and a matched document's positions are reached by
 * counting run ends from the last run read.
 */
function addListStretch(postings: Postings, from: number, to: number, member: Uint32Array | null, titleLength: ArrayLike<number>, abstractLength: ArrayLike<number>, acc: Uint32Array, prefix: number): void {
  const { listDocs, positions } = postings;
  const start = postings.docsAt[from]!;
  const end = postings.docsAt[to - 1]! + postings.df[to - 1]!;
  spend(end - start + postings.positionsAt[to]! - postings.positionsAt[from]!);
  let off = postings.positionsAt[from]!;
  let pair = start;
  for (let i = start; i < end; i++) {
    if ((i & 4095) === 0) spend(0);
    const d = listDocs[i]!;
    if (member !== null && (member[d >>> 5]! & (1 << (d & 31))) === 0) continue;
    off = skipRuns(positions, off, i - pair);
    const title = titleLength[d]!;
    off = addRun(acc, d, positions, off, title, title + abstractLength[d]!, prefix);
    pair = i + 1;
  }
}

/** Adds the pairs of list word `w` whose document is in `member` (null: every document), as {@link addListStretch} does for a stretch of list words. */
function addListMembers(postings: Postings, w: number, member: Uint32Array | null, titleLength: ArrayLike<number>, abstractLength: ArrayLike<number>, acc: Uint32Array, prefix: number): void {
  if (postings.dense[w] !== GROUPED) {
    addListStretch(postings, w, w + 1, member, titleLength, abstractLength, acc, prefix);
    return;
  }
  // The grouped list read in place (see list-groups.ts): group by group, each low half OR its group's high bits.
  const { positions, listLows, groups, groupShift } = postings;
  const header = postings.docsAt[w]!;
  const lowsAt = header + groups + 1;
  let off = postings.positionsAt[w]!;
  let pair = 0;
  let i = 0;
  for (let g = 0; g < groups; g++) {
    const high = g << groupShift;
    for (const end = listLows[header + g + 1]!; i < end; i++) {
      if ((i & 4095) === 0) spend(0);
      const d = high | listLows[lowsAt + i]!;
      if (member !== null && (member[d >>> 5]! & (1 << (d & 31))) === 0) continue;
      off = skipRuns(positions, off, i - pair);
      const title = titleLength[d]!;
      off = addRun(acc, d, positions, off, title, title + abstractLength[d]!, prefix);
      pair = i + 1;
    }
  }
}

/** A term's exact occurrences in document `d`: the positions of the words `[from, to)` there, by field. */
function countFromPositions(index: IndexData, d: number, from: number, to: number, exact: number): TermOccurrences {
  const { postings, layout } = index;
  const found: TermOccurrences = {
    title: { whole: 0, prefix: 0 },
    abstract: { whole: 0, prefix: 0 },
    authors: { whole: 0, prefix: 0 },
    arxivId: false,
  };
  const title = layout.titleLength[d]!;
  const titleAbstract = title + layout.abstractLength[d]!;
  spend((to - from) * 16);
  for (let w = from; w < to; w++) {
    const df = postings.df[w]!;
    if (df === 0) continue;
    let pair = -1;
    if (postings.dense[w] === DENSE) {
      if ((postings.bitsOf(w)[d >>> 5]! & (1 << (d & 31))) !== 0) pair = postings.rank(w, d);
    } else pair = postings.seek(w, d, 0);
    if (pair < 0) continue;
    let off = postings.pairOffset(w, pair);
    for (;;) {
      const v = postings.positions[off++]!;
      const q = v & POSITION;
      const field = q < title ? found.title : q <= titleAbstract ? found.abstract : found.authors;
      if (w === exact) field.whole++;
      else field.prefix++;
      if ((v & LAST) !== 0) break;
    }
  }
  return found;
}

/** The phrase counts of a match, for `docs` (both ascending; absent documents count zero). */
function phraseCounts(match: TermMatch, docs: Uint32Array): Uint32Array {
  const phraseDocs = match.phraseDocs!;
  const six = match.phraseCounts!;
  // A phrase alone: the documents scored are its own, the counts are already in their order.
  if (sameDocs(docs, phraseDocs)) return six;
  const counts = uint32Array(docs.length * COUNTS_PER_DOC);
  let j = 0;
  for (let s = 0; s < docs.length && j < phraseDocs.length; s++) {
    const d = docs[s]!;
    while (j < phraseDocs.length && phraseDocs[j]! < d) j++;
    if (j < phraseDocs.length && phraseDocs[j] === d) {
      for (let i = 0; i < COUNTS_PER_DOC; i++) counts[s * COUNTS_PER_DOC + i] = six[j * COUNTS_PER_DOC + i]!;
    }
  }
  return counts;
}

/** Whether two ascending lists hold the same documents. */
function sameDocs(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
