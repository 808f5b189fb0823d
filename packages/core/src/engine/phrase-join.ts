import { int32Array, uint16Array, uint32Array, uint8Array } from './alloc.js';
import { bitsetWords } from './bits.js';
import { lowerBound, type DocSet } from './doc-set.js';
import type { IndexData } from './builder.js';
import { DENSE, LAST, POSITION, SPACE_AFTER, SPACE_BEFORE } from './postings.js';
import { RunBatch, WHOLE_RUN } from './run-batch.js';
import { spend } from './work-budget.js';
import { CODE, CODE_MAYBE, CODE_NO, NEXT_SPACE_AFTER, type CodeClasses } from './successors.js';
import { LOOKUP_COST, PAIR_COST, planJoin, WALK_COST, type JoinPlan, type PairStep } from './phrase-plan.js';

/**
 * Where a phrase may stand: anywhere (positions never run from one field into the next, so
 * a phrase is always inside one field), or only in the title or the abstract.
 */
export type JoinField = 'any' | 'title' | 'abstract';

/** State of a candidate start: the separators say it cannot match, or they must be read. */
const NO = 2;
const VERIFY = 1;
/** {@link separatorState}'s answers, for the other joins of substring needles. */
export { NO as NO_STATE, VERIFY as VERIFY_STATE };
/** State of a start: the last part matched its whole word (counting mode). */
const WHOLE = 4;
/** State of a start during a pair step: the successor code cannot tell; the part's "maybe" words must be read. */
const PENDING = 8;

/**
 * What the separators of a needle require of the word at each part: `null` where nothing is
 * required; `' '` where the separator must be exactly one space; any other string where it
 * must be that string (the flags only tell "one space or not", so that needs a reading).
 * `edge` separators (before the first part, after the last) need only end or start with it.
 */
export interface PartSeparators {
  before: string | null;
  beforeIsEdge: boolean;
  after: string | null;
  afterIsEdge: boolean;
}

export { ANCHOR_COST, LOOKUP_COST, WALK_COST } from './phrase-plan.js';

/**
 * Finds the places where the words of consecutive parts stand at consecutive positions:
 * `parts[0]` at p, `parts[1]` at p + 1, … (each part a set of word numbers). The work is
 * about the occurrences of the cheapest part, then, for each other part, the smaller of its
 * occurrences and a lookup per remaining candidate document; every occurrence costs O(1)
 * whatever the number of candidates (a per-document slot map, not merges).
 *
 * The join is reused: one per engine (per thread), its scratch arrays kept zeroed.
 */
export class PhraseJoin {
  /** Per document: its segment + 1 while it has candidate starts, else 0 (zeroed between joins). */
  private segmentOf: Int32Array = new Int32Array(0);
  /** Per document: in the restriction (when it is a list), cleared after use. */
  private marks: Uint32Array = new Uint32Array(0);
  /** Per document: its text carries no separator flags (status mode), cleared after use. */
  private unflagged: Uint32Array = new Uint32Array(0);
  // The candidate starts, grouped by document (docs ascending, positions ascending in each).
  private docs = uint32Array(1024);
  private begin = uint32Array(1025);
  private segments = 0;
  private positions = uint16Array(4096);
  private states = uint8Array(4096);
  private hits = uint8Array(4096);
  private readonly batch = new RunBatch();
  /** The pair step whose separator table `pairStates` is (see `pairTable`). */
  private pairTableOf: PairStep | null = null;
  private pairStates: Uint8Array = new Uint8Array(8);

  constructor(private readonly index: IndexData) {}

  /** The per-document scratch arrays, made on the first join (a thread that never joins never holds them). */
  private prepare(): void {
    if (this.segmentOf.length === this.index.n) return;
    this.segmentOf = int32Array(this.index.n);
    this.marks = uint32Array(bitsetWords(this.index.n));
    this.unflagged = uint32Array(bitsetWords(this.index.n));
  }

  /**
   * Counting mode (`q` phrases): every document where the phrase occurs, ascending, with its
   * six counts (title, abstract, authors; whole then prefix: the last part counts whole on
   * `exactLast`, as a prefix on its other words).
   */
  count(parts: readonly Uint32Array[], exactLast: number, restrict: DocSet | null): { docs: Uint32Array; counts: Uint32Array } {
    this.prepare();
    try {
      if (!this.run(parts, 'any', restrict, null, exactLast, Infinity)) return { docs: new Uint32Array(0), counts: new Uint32Array(0) };
      const { titleLength, abstractLength } = this.index.layout;
      const m = this.segments;
      const counts = uint32Array(m * 6);
      // Locals, not fields: this loop runs once per occurrence of the phrase (millions for `"of the"`).
      const docs = this.docs;
      const begin = this.begin;
      const positions = this.positions;
      const states = this.states;
      for (let s = 0; s < m; s++) {
        const d = docs[s]!;
        const title = titleLength[d]!;
        const titleAbstract = title + abstractLength[d]!;
        const end = begin[s + 1]!;
        for (let i = begin[s]!; i < end; i++) {
          const p = positions[i]!;
          const field = p < title ? 0 : p <= titleAbstract ? 2 : 4;
          counts[s * 6 + field + ((states[i]! & WHOLE) !== 0 ? 0 : 1)]!++;
        }
      }
      return { docs: this.docs.slice(0, m), counts };
    } finally {
      this.clear();
    }
  }

  /**
   * Status mode (substring needles): the documents where the parts stand in a row inside
   * `field` and the separator flags prove the needle is there (`yes`), and those where the
   * flags cannot tell (`verify`: the text must be read), both ascending. Documents in
   * `unflagged` (text without separator flags) are always `verify`. A part whose reading
   * would cost more than `verifyCost` per remaining document is not read: its documents
   * become `verify`. `plan`: the parts' join plan when the caller made it already.
   */
  status(
    parts: readonly Uint32Array[],
    field: Exclude<JoinField, 'any'>,
    separators: readonly PartSeparators[],
    unflagged: Uint32Array,
    restrict: DocSet | null,
    verifyCost: number,
    plan?: JoinPlan,
  ): { yes: Uint32Array; verify: Uint32Array } {
    this.prepare();
    const marks = this.unflagged;
    for (let i = 0; i < unflagged.length; i++) marks[unflagged[i]! >>> 5]! |= 1 << (unflagged[i]! & 31);
    try {
      if (!this.run(parts, field, restrict, separators, -1, verifyCost, plan)) return { yes: new Uint32Array(0), verify: new Uint32Array(0) };
      const yes: number[] = [];
      const verify: number[] = [];
      for (let s = 0; s < this.segments; s++) {
        let best = NO;
        for (let i = this.begin[s]!; i < this.begin[s + 1]! && best !== 0; i++) best = Math.min(best, this.states[i]! & (NO | VERIFY));
        if (best === 0) yes.push(this.docs[s]!);
        else if (best === VERIFY) verify.push(this.docs[s]!);
      }
      return { yes: Uint32Array.from(yes), verify: Uint32Array.from(verify) };
    } finally {
      for (let i = 0; i < unflagged.length; i++) marks[unflagged[i]! >>> 5] = 0;
      this.clear();
    }
  }

  /** Runs the join; false when nothing is left. Leaves the starts in the segment arrays. */
  private run(
    parts: readonly Uint32Array[],
    field: JoinField,
    restrict: DocSet | null,
    separators: readonly PartSeparators[] | null,
    exactLast: number,
    verifyCost: number,
    planned?: JoinPlan,
  ): boolean {
    const k = parts.length;
    // The word counted whole at part c (the last part's exact word, counting mode only).
    const wholeAt = (c: number) => (exactLast === -1 ? -1 : c === k - 1 ? exactLast : -2);
    const plan = planned ?? planJoin(this.index, parts, wholeAt(k - 1));
    const covered = parts.map(() => false);
    const restriction = this.restriction(restrict);
    try {
      const first = plan.anchor;
      if (first.kind === 'pair') {
        this.collectPair(first, k, field, restriction, separators, wholeAt(first.part + 1));
        covered[first.part + 1] = true;
      } else {
        this.collectStarts(parts[first.part]!, first.part, k, field, restriction, separators, wholeAt(first.part));
      }
      covered[first.part] = true;
    } finally {
      if (restrict !== null && restrict.kind === 'list') for (let i = 0; i < restrict.docs.length; i++) this.marks[restrict.docs[i]! >>> 5] = 0;
    }
    for (const c of plan.order) {
      if (covered[c]) continue;
      if (this.segments === 0) return false;
      const starts = this.begin[this.segments]!;
      const pair = plan.pairFor(c, covered, this.segments);
      if (pair !== null && pair.cost < this.lookupCost(parts[c]!)) {
        this.filterPair(pair, separators, wholeAt(pair.part + 1));
        covered[pair.part] = true;
        covered[pair.part + 1] = true;
        continue;
      }
      covered[c] = true;
      if (separators !== null && this.lookupCost(parts[c]!) > verifyCost * this.segments) {
        // Cheaper to read the texts than this part's positions: its documents will be verified.
        for (let i = 0; i < starts; i++) this.states[i]! |= VERIFY;
        continue;
      }
      this.filter(parts[c]!, c, separators, wholeAt(c));
    }
    return this.segments > 0;
  }

  /** Positions held by the words (what reading them all costs). */
  private occurrences(words: Uint32Array): number {
    const at = this.index.postings.positionsAt;
    let total = 0;
    for (let i = 0; i < words.length; i++) total += at[words[i]! + 1]! - at[words[i]!]!;
    return total;
  }

  /** What reading a part costs with the documents left: per word, the cheaper of its walk and lookups. */
  private lookupCost(words: Uint32Array): number {
    const { df, positionsAt } = this.index.postings;
    let total = 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      total += Math.min((df[w]! + positionsAt[w + 1]! - positionsAt[w]!) * WALK_COST, this.segments * LOOKUP_COST);
    }
    return total;
  }

  /** The restriction as a bitset to test membership with (the set's own, or marks), or null for none. */
  private restriction(restrict: DocSet | null): Uint32Array | null {
    if (restrict === null || restrict.kind === 'all') return null;
    if (restrict.kind === 'bits') return restrict.bits;
    const marks = this.marks;
    for (let i = 0; i < restrict.docs.length; i++) marks[restrict.docs[i]! >>> 5]! |= 1 << (restrict.docs[i]! & 31);
    return marks;
  }

  /**
   * The candidate starts from the anchor part (number `a` of `k`): every occurrence q of its
   * words gives the start q - a, when it leaves room for the phrase inside `field`.
   */
  private collectStarts(
    words: Uint32Array,
    a: number,
    k: number,
    field: JoinField,
    restriction: Uint32Array | null,
    separators: readonly PartSeparators[] | null,
    whole: number,
  ): void {
    const rule = separators === null ? null : separators[a]!;
    if (words.length === 1) {
      this.collectOneWord(words[0]!, a, k, field, restriction, rule, whole);
      return;
    }
    // Several words: their runs sorted by document, each document's starts gathered in turn.
    const { postings, layout } = this.index;
    const { positions } = postings;
    const batch = this.batch;
    batch.gather(postings, Array.from(words), whole);
    let total = 0;
    for (let i = 0; i < words.length; i++) total += postings.positionsAt[words[i]! + 1]! - postings.positionsAt[words[i]!]!;
    this.ensure(batch.size, total);
    const docs = this.docs;
    const begin = this.begin;
    const starts = this.positions;
    const states = this.states;
    const oversize = layout.oversize;
    let m = 0;
    let written = 0;
    let current = -1;
    let first = 0;
    const close = () => {
      if (current >= 0 && written > first) {
        docs[m] = current;
        begin[m] = first;
        m++;
        this.segmentOf[current] = m;
        sortSegment(starts, states, first, written);
      }
    };
    for (let i = 0; i < batch.size; i++) {
      if ((i & 1023) === 0) spend(1024 * 8);
      const d = batch.docs[i]!;
      if (d !== current) {
        close();
        current = d;
        first = written;
      }
      if ((restriction !== null && (restriction[d >>> 5]! & (1 << (d & 31))) === 0) || (oversize.length > 0 && isIn(oversize, d))) continue;
      const value = batch.offsets[i]!;
      let off = RunBatch.offset(value);
      const state0 = (value & WHOLE_RUN) !== 0 ? WHOLE : 0;
      const [from, to] = startRange(layout.titleLength[d]!, layout.abstractLength[d]!, field, a, k);
      const unflagged = rule !== null && (this.unflagged[d >>> 5]! & (1 << (d & 31))) !== 0;
      for (;;) {
        const v = positions[off++]!;
        const q = v & POSITION;
        if (q >= from && q <= to) {
          const state = rule === null ? state0 : unflagged ? VERIFY : separatorState(rule, v);
          if ((state & NO) === 0) {
            starts[written] = q - a;
            states[written] = state;
            written++;
          }
        }
        if ((v & LAST) !== 0) break;
      }
    }
    close();
    begin[m] = written;
    this.segments = m;
  }

  /**
   * The starts of a one-word anchor in one pass: its documents come in order, and its
   * postings bound how many there can be.
   */
  private collectOneWord(w: number, a: number, k: number, field: JoinField, restriction: Uint32Array | null, rule: PartSeparators | null, whole: number): void {
    const { postings, layout } = this.index;
    const df = postings.df[w]!;
    this.ensure(df, postings.positionsAt[w + 1]! - postings.positionsAt[w]!);
    this.segments = 0;
    this.begin[0] = 0;
    if (df === 0) return;
    spend(df + postings.positionsAt[w + 1]! - postings.positionsAt[w]!);
    const positions = postings.positions;
    const docs = this.docs;
    const begin = this.begin;
    const segmentOf = this.segmentOf;
    const starts = this.positions;
    const states = this.states;
    const unflaggedMarks = this.unflagged;
    const oversize = layout.oversize;
    const titleLength = layout.titleLength;
    const abstractLength = layout.abstractLength;
    const state0 = w === whole ? WHOLE : 0;
    const dense = postings.dense[w] === DENSE;
    const bits = dense ? postings.bitsOf(w) : null;
    const list = dense ? null : postings.docsOf(w);
    let off = postings.positionsAt[w]!;
    let m = 0;
    let written = 0;
    let visited = 0;
    let j = dense ? -1 : 0;
    let x = 0;
    for (;;) {
      let d: number;
      if (dense) {
        while (x === 0 && ++j < bits!.length) x = bits![j]!;
        if (x === 0) break;
        const t = x & -x;
        x ^= t;
        d = (j << 5) + 31 - Math.clz32(t);
      } else {
        if (j >= df) break;
        d = list![j++]!;
      }
      if ((++visited & 4095) === 0) spend(0);
      if ((restriction !== null && (restriction[d >>> 5]! & (1 << (d & 31))) === 0) || (oversize.length > 0 && isIn(oversize, d))) {
        while ((positions[off++]! & LAST) === 0);
        continue;
      }
      let from = a;
      let to = 0x7fffffff;
      if (field !== 'any') [from, to] = startRange(titleLength[d]!, abstractLength[d]!, field, a, k);
      const unflagged = rule !== null && (unflaggedMarks[d >>> 5]! & (1 << (d & 31))) !== 0;
      const first = written;
      for (;;) {
        const v = positions[off++]!;
        const q = v & POSITION;
        if (q >= from && q <= to) {
          const state = rule === null ? state0 : unflagged ? VERIFY : separatorState(rule, v);
          if ((state & NO) === 0) {
            starts[written] = q - a;
            states[written] = state;
            written++;
          }
        }
        if ((v & LAST) !== 0) break;
      }
      if (written > first) {
        docs[m] = d;
        begin[m] = first;
        m++;
        segmentOf[d] = m;
      }
    }
    begin[m] = written;
    this.segments = m;
  }

  /** Keeps the starts where a word of part `c` stands at start + c (checking its separators). */
  private filter(words: Uint32Array, c: number, separators: readonly PartSeparators[] | null, whole: number): void {
    this.mark(words, c, separators, whole);
    this.compact();
  }

  /** Marks (`hits`) the starts where a word of part `c` stands at start + c. */
  private mark(words: Uint32Array, c: number, separators: readonly PartSeparators[] | null, whole: number): void {
    const rule = separators === null ? null : separators[c]!;
    const { postings, n } = this.index;
    // Frequent words are read one by one (their documents come in order anyway), rare ones
    // as one batch sorted by document; words with few of the documents left are looked up.
    const rare: number[] = [];
    for (let x = 0; x < words.length; x++) {
      const w = words[x]!;
      const df = postings.df[w]!;
      if (df === 0) continue;
      const walkCost = df + postings.positionsAt[w + 1]! - postings.positionsAt[w]!;
      if (df * 64 < n && this.segments * LOOKUP_COST >= walkCost) rare.push(w);
      else this.filterWord(w, c, rule, w === whole ? WHOLE : 0);
    }
    if (rare.length > 0) {
      const batch = this.batch;
      batch.gather(postings, rare, whole);
      const segmentOf = this.segmentOf;
      for (let i = 0; i < batch.size; i++) {
        if ((i & 1023) === 0) spend(1024 * 8);
        const s = segmentOf[batch.docs[i]!]! - 1;
        if (s < 0) continue;
        const value = batch.offsets[i]!;
        this.merge(s, RunBatch.offset(value), c, rule, (value & WHOLE_RUN) !== 0 ? WHOLE : 0);
      }
    }
  }

  /**
   * The starts of a pair step (`step.part` is its anchor word, `step.part + 1` what its
   * successor codes must say): one read of the word's positions and codes. Starts whose code
   * is "maybe" are then checked with the part's "maybe" words.
   */
  private collectPair(
    step: PairStep,
    k: number,
    field: JoinField,
    restriction: Uint32Array | null,
    separators: readonly PartSeparators[] | null,
    whole: number,
  ): void {
    const { postings, layout } = this.index;
    const w = step.word;
    const a = step.part;
    const df = postings.df[w]!;
    const base = postings.positionsAt[w]!;
    const occurrences = postings.positionsAt[w + 1]! - base;
    this.ensure(df, occurrences);
    this.segments = 0;
    this.begin[0] = 0;
    if (df === 0) return;
    spend(df + occurrences);
    const positions = postings.positions;
    const codes = this.index.successors.codes;
    const shift = step.codesAt - base;
    const classes = step.classes.classes;
    const wholeCode = step.wholeCode;
    const pairStates = separators === null ? null : pairSeparatorTable(separators[a]!, separators[a + 1]!);
    const docs = this.docs;
    const begin = this.begin;
    const segmentOf = this.segmentOf;
    const starts = this.positions;
    const states = this.states;
    const unflaggedMarks = this.unflagged;
    const titleLength = layout.titleLength;
    const abstractLength = layout.abstractLength;
    const dense = postings.dense[w] === DENSE;
    const bits = dense ? postings.bitsOf(w) : null;
    const list = dense ? null : postings.docsOf(w);
    let off = base;
    let m = 0;
    let written = 0;
    let visited = 0;
    let j = dense ? -1 : 0;
    let x = 0;
    for (;;) {
      let d: number;
      if (dense) {
        while (x === 0 && ++j < bits!.length) x = bits![j]!;
        if (x === 0) break;
        const t = x & -x;
        x ^= t;
        d = (j << 5) + 31 - Math.clz32(t);
      } else {
        if (j >= df) break;
        d = list![j++]!;
      }
      if ((++visited & 4095) === 0) spend(0);
      // (Oversize documents need no test: their codes are all NONE, which no part accepts.)
      if (restriction !== null && (restriction[d >>> 5]! & (1 << (d & 31))) === 0) {
        while ((positions[off++]! & LAST) === 0);
        continue;
      }
      // The range of startRange, inline: this loop runs once per document of the commonest words.
      let from = a;
      let to = 0x7fffffff;
      if (field === 'title') to = titleLength[d]! - k + a;
      else if (field === 'abstract') {
        from = titleLength[d]! + 1 + a;
        to = titleLength[d]! + abstractLength[d]! - k + 1 + a;
      }
      const unflagged = pairStates !== null && (unflaggedMarks[d >>> 5]! & (1 << (d & 31))) !== 0;
      const first = written;
      for (;;) {
        const v = positions[off]!;
        const code = codes[off + shift]!;
        off++;
        const kind = classes[code & CODE]!;
        if (kind !== CODE_NO) {
          const q = v & POSITION;
          if (q >= from && q <= to) {
            let state = (code & CODE) === wholeCode ? WHOLE : 0;
            if (kind === CODE_MAYBE) state |= PENDING;
            if (pairStates !== null) state |= unflagged ? VERIFY : pairStates[pairFlags(v, code)]!;
            if ((state & NO) === 0) {
              starts[written] = q - a;
              states[written] = state;
              written++;
            }
          }
        }
        if ((v & LAST) !== 0) break;
      }
      if (written > first) {
        docs[m] = d;
        begin[m] = first;
        m++;
        segmentOf[d] = m;
      }
    }
    begin[m] = written;
    this.segments = m;
    this.resolvePending(step, separators, whole);
  }

  /** Keeps the starts where the pair step's word stands at start + part and its code accepts part + 1. */
  private filterPair(step: PairStep, separators: readonly PartSeparators[] | null, whole: number): void {
    const { postings } = this.index;
    const w = step.word;
    const c = step.part;
    const df = postings.df[w]!;
    const m = this.segments;
    const occurrences = postings.positionsAt[w + 1]! - postings.positionsAt[w]!;
    // A pair's walk only merges the occurrences its codes accept: it costs PAIR_COST per occurrence.
    if (df > 0 && m * LOOKUP_COST < occurrences * PAIR_COST) {
      spend(m * LOOKUP_COST);
      // Few documents left: find the word's pair in each.
      if (postings.dense[w] === DENSE) {
        const bits = postings.bitsOf(w);
        for (let s = 0; s < m; s++) {
          const d = this.docs[s]!;
          if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0) this.pairMerge(s, postings.pairOffset(w, postings.rank(w, d)), step, separators);
        }
      } else {
        let j = 0;
        for (let s = 0; s < m && j < df; s++) {
          const pair = postings.seek(w, this.docs[s]!, j);
          if (pair < 0) j = ~pair;
          else {
            j = pair;
            this.pairMerge(s, postings.pairOffset(w, pair), step, separators);
          }
        }
      }
    } else if (df > 0) {
      spend(df + occurrences);
      const positions = postings.positions;
      const segmentOf = this.segmentOf;
      const dense = postings.dense[w] === DENSE;
      const bits = dense ? postings.bitsOf(w) : null;
      const list = dense ? null : postings.docsOf(w);
      let off = postings.positionsAt[w]!;
      let visited = 0;
      let j = dense ? -1 : 0;
      let x = 0;
      for (;;) {
        let d: number;
        if (dense) {
          while (x === 0 && ++j < bits!.length) x = bits![j]!;
          if (x === 0) break;
          const t = x & -x;
          x ^= t;
          d = (j << 5) + 31 - Math.clz32(t);
        } else {
          if (j >= df) break;
          d = list![j++]!;
        }
        if ((++visited & 4095) === 0) spend(0);
        const s = segmentOf[d]! - 1;
        if (s < 0) {
          while ((positions[off++]! & LAST) === 0);
          continue;
        }
        off = this.pairMerge(s, off, step, separators);
      }
    }
    this.compact();
    this.resolvePending(step, separators, whole);
  }

  /** The separator table of a pair step, made once per step (a pair merge runs once per document). */
  private pairTable(step: PairStep, separators: readonly PartSeparators[]): Uint8Array {
    if (this.pairTableOf !== step) {
      this.pairTableOf = step;
      this.pairStates = pairSeparatorTable(separators[step.part]!, separators[step.part + 1]!);
    }
    return this.pairStates;
  }

  /** Merges the pair word's run at `off` with segment `s`'s starts, reading the codes; returns the offset after the run. */
  private pairMerge(s: number, off: number, step: PairStep, separators: readonly PartSeparators[] | null): number {
    const positions = this.index.postings.positions;
    const codes = this.index.successors.codes;
    const shift = step.codesAt - this.index.postings.positionsAt[step.word]!;
    const classes = step.classes.classes;
    const c = step.part;
    const pairStates = separators === null ? null : this.pairTable(step, separators);
    const starts = this.positions;
    const states = this.states;
    const hits = this.hits;
    let i = this.begin[s]!;
    const end = this.begin[s + 1]!;
    const d = this.docs[s]!;
    const unflagged = pairStates !== null && (this.unflagged[d >>> 5]! & (1 << (d & 31))) !== 0;
    for (;;) {
      const v = positions[off]!;
      const code = codes[off + shift]!;
      off++;
      const kind = classes[code & CODE]!;
      if (kind !== CODE_NO && i < end) {
        const target = (v & POSITION) - c;
        while (i < end && starts[i]! < target) i++;
        if (i < end && starts[i] === target) {
          hits[i] = 1;
          let state = (code & CODE) === step.wholeCode ? WHOLE : 0;
          if (kind === CODE_MAYBE) state |= PENDING;
          if (pairStates !== null) state |= unflagged ? VERIFY : pairStates[pairFlags(v, code)]!;
          states[i]! |= state;
        }
      }
      if ((v & LAST) !== 0) return off;
    }
  }

  /**
   * After a pair step: the starts whose code was "maybe" are kept only where one of the
   * part's "maybe" words stands at start + part + 1 (read with positions, as a plain part).
   */
  private resolvePending(step: PairStep, separators: readonly PartSeparators[] | null, whole: number): void {
    const total = this.begin[this.segments]!;
    const states = this.states;
    let pending = false;
    for (let i = 0; i < total && !pending; i++) pending = (states[i]! & PENDING) !== 0;
    if (!pending) return;
    const hits = this.hits;
    for (let i = 0; i < total; i++) {
      if ((states[i]! & PENDING) !== 0) states[i]! &= ~PENDING;
      else hits[i] = 1;
    }
    this.mark(step.classes.maybeWords, step.part + 1, separators, whole);
    this.compact();
  }

  /** Marks the starts hit by word `w` standing at start + c. */
  private filterWord(w: number, c: number, rule: PartSeparators | null, state0: number): void {
    const { postings } = this.index;
    const df = postings.df[w]!;
    if (df === 0) return;
    const positions = postings.positions;
    const m = this.segments;
    const walkCost = df + postings.positionsAt[w + 1]! - postings.positionsAt[w]!;
    if (m * LOOKUP_COST < walkCost) {
      spend(m * LOOKUP_COST);
      // Few documents left: find the word's pair in each.
      if (postings.dense[w] === DENSE) {
        const bits = postings.bitsOf(w);
        for (let s = 0; s < m; s++) {
          const d = this.docs[s]!;
          if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0) this.merge(s, postings.pairOffset(w, postings.rank(w, d)), c, rule, state0);
        }
      } else {
        let j = 0;
        for (let s = 0; s < m && j < df; s++) {
          const pair = postings.seek(w, this.docs[s]!, j);
          if (pair < 0) j = ~pair;
          else {
            j = pair;
            this.merge(s, postings.pairOffset(w, pair), c, rule, state0);
          }
        }
      }
      return;
    }
    spend(walkCost);
    const segmentOf = this.segmentOf;
    const begin = this.begin;
    const starts = this.positions;
    const states = this.states;
    const hits = this.hits;
    const unflaggedMarks = this.unflagged;
    const dense = postings.dense[w] === DENSE;
    const bits = dense ? postings.bitsOf(w) : null;
    const list = dense ? null : postings.docsOf(w);
    let off = postings.positionsAt[w]!;
    let visited = 0;
    let j = dense ? -1 : 0;
    let x = 0;
    for (;;) {
      let d: number;
      if (dense) {
        while (x === 0) {
          if (++j >= bits!.length) return;
          x = bits![j]!;
        }
        const t = x & -x;
        x ^= t;
        d = (j << 5) + 31 - Math.clz32(t);
      } else {
        if (j >= df) return;
        d = list![j++]!;
      }
      if ((++visited & 4095) === 0) spend(0);
      const s = segmentOf[d]! - 1;
      if (s < 0) {
        while ((positions[off++]! & LAST) === 0);
        continue;
      }
      // The run merged with the segment's starts (as `merge`, inlined: this is the hot loop).
      let i = begin[s]!;
      const end = begin[s + 1]!;
      const unflagged = rule !== null && (unflaggedMarks[d >>> 5]! & (1 << (d & 31))) !== 0;
      for (;;) {
        const v = positions[off++]!;
        if (i < end) {
          const target = (v & POSITION) - c;
          while (i < end && starts[i]! < target) i++;
          if (i < end && starts[i] === target) {
            hits[i] = 1;
            states[i]! |= rule === null ? state0 : unflagged ? VERIFY : separatorState(rule, v);
          }
        }
        if ((v & LAST) !== 0) break;
      }
    }
  }

  /** Merges the run at `off` (one word in one document) with segment `s`'s starts; returns the offset after the run. */
  private merge(s: number, off: number, c: number, rule: PartSeparators | null, state0: number): number {
    const positions = this.index.postings.positions;
    const starts = this.positions;
    const states = this.states;
    const hits = this.hits;
    let i = this.begin[s]!;
    const end = this.begin[s + 1]!;
    const d = this.docs[s]!;
    const unflagged = rule !== null && (this.unflagged[d >>> 5]! & (1 << (d & 31))) !== 0;
    for (;;) {
      const v = positions[off++]!;
      if (i < end) {
        const target = (v & POSITION) - c;
        while (i < end && starts[i]! < target) i++;
        if (i < end && starts[i] === target) {
          hits[i] = 1;
          states[i]! |= rule === null ? state0 : unflagged ? VERIFY : separatorState(rule, v);
        }
      }
      if ((v & LAST) !== 0) return off;
    }
  }

  /** Drops the starts no word hit (and documents left without starts); clears the hit marks. */
  private compact(): void {
    const m = this.segments;
    spend(this.begin[m]! + m);
    let out = 0;
    let kept = 0;
    for (let s = 0; s < m; s++) {
      const d = this.docs[s]!;
      const from = this.begin[s]!;
      const to = this.begin[s + 1]!;
      const first = out;
      for (let i = from; i < to; i++) {
        if (this.hits[i] === 1) {
          this.hits[i] = 0;
          this.positions[out] = this.positions[i]!;
          this.states[out] = this.states[i]!;
          out++;
        }
      }
      if (out > first) {
        this.docs[kept] = d;
        this.begin[kept] = first;
        this.segmentOf[d] = kept + 1;
        kept++;
      } else this.segmentOf[d] = 0;
    }
    this.begin[kept] = out;
    this.segments = kept;
  }

  private ensure(segments: number, starts: number): void {
    if (this.docs.length < segments) {
      this.docs = uint32Array(segments * 2);
      this.begin = uint32Array(segments * 2 + 1);
    }
    if (this.positions.length < starts) {
      this.positions = uint16Array(starts * 2);
      this.states = uint8Array(starts * 2);
      this.hits = uint8Array(starts * 2);
    }
  }

  /** Zeroes the slot map again (and the counters of an interrupted first pass). */
  private clear(): void {
    for (let s = 0; s < this.segments; s++) this.segmentOf[this.docs[s]!] = 0;
    this.segments = 0;
  }

  /** After an interrupted join: everything zeroed again, whatever state it was left in. */
  reset(): void {
    this.segmentOf.fill(0);
    this.marks.fill(0);
    this.unflagged.fill(0);
    this.hits.fill(0);
    this.segments = 0;
  }
}

/** What one occurrence's separator flags say about a part's rule: 0 (fine), VERIFY or NO. */
export function separatorState(rule: PartSeparators, v: number): number {
  let state = 0;
  if (rule.before !== null) state |= flagState(rule.before, rule.beforeIsEdge, (v & SPACE_BEFORE) !== 0);
  if (rule.after !== null) state |= flagState(rule.after, rule.afterIsEdge, (v & SPACE_AFTER) !== 0);
  return state;
}

/**
 * The separator flags of both words of a pair: the anchor's own, and the next word's, made
 * from the anchor's "space after" (the same separator) and the code's flag.
 */
function pairSeparatorState(ruleA: PartSeparators, ruleB: PartSeparators, v: number, code: number): number {
  const next = ((v & SPACE_AFTER) !== 0 ? SPACE_BEFORE : 0) | ((code & NEXT_SPACE_AFTER) !== 0 ? SPACE_AFTER : 0);
  return separatorState(ruleA, v) | separatorState(ruleB, next);
}

/** The three flags {@link pairSeparatorState} reads, as a number 0–7 (see {@link pairSeparatorTable}). */
function pairFlags(v: number, code: number): number {
  return ((v & SPACE_BEFORE) !== 0 ? 1 : 0) | ((v & SPACE_AFTER) !== 0 ? 2 : 0) | ((code & NEXT_SPACE_AFTER) !== 0 ? 4 : 0);
}

/** {@link pairSeparatorState} for each value of {@link pairFlags}: a pair walk reads one byte per occurrence instead. */
function pairSeparatorTable(ruleA: PartSeparators, ruleB: PartSeparators): Uint8Array {
  const table = new Uint8Array(8);
  for (let flags = 0; flags < 8; flags++) {
    const v = ((flags & 1) !== 0 ? SPACE_BEFORE : 0) | ((flags & 2) !== 0 ? SPACE_AFTER : 0);
    table[flags] = pairSeparatorState(ruleA, ruleB, v, (flags & 4) !== 0 ? NEXT_SPACE_AFTER : 0);
  }
  return table;
}

/**
 * An inner separator must equal `wanted`: a flag saying "one space" proves or refutes it;
 * without the flag only `" "` is refuted. An edge separator must end (or start) with
 * `wanted`: the flag proves or refutes it; without the flag it must be read.
 */
function flagState(wanted: string, edge: boolean, oneSpace: boolean): number {
  if (oneSpace) return wanted === ' ' ? 0 : NO;
  if (edge) return VERIFY;
  return wanted === ' ' ? NO : VERIFY;
}

/**
 * The positions where part `a` of a `k`-part phrase may stand in a document, for the phrase to
 * lie inside `field` (title `[0, T)`, abstract `[T + 1, T + A]`); anywhere for `any`.
 */
function startRange(title: number, abstract: number, field: JoinField, a: number, k: number): [number, number] {
  if (field === 'title') return [a, title - k + a];
  if (field === 'abstract') return [title + 1 + a, title + abstract - k + 1 + a];
  return [a, 0x7fffffff];
}

function isIn(sorted: Uint32Array, d: number): boolean {
  const i = lowerBound(sorted, d, 0, sorted.length);
  return i < sorted.length && sorted[i] === d;
}

/** Insertion sort of one document's starts (they come from several words, each in order). */
function sortSegment(positions: Uint16Array, states: Uint8Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const p = positions[i]!;
    const st = states[i]!;
    let j = i - 1;
    while (j >= from && positions[j]! > p) {
      positions[j + 1] = positions[j]!;
      states[j + 1] = states[j]!;
      j--;
    }
    positions[j + 1] = p;
    states[j + 1] = st;
  }
}
