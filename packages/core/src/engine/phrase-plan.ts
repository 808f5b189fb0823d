import type { IndexData } from './builder.js';
import type { CodeClasses } from './successors.js';

/** Work units (about one position read each) of finding one word's positions in one document: rank and skip entries. */
export const LOOKUP_COST = 150;
/** Work units per position read when a part's words are walked and merged with the starts. */
export const WALK_COST = 12;
/** Work units per position read when the anchor's starts are collected. */
export const ANCHOR_COST = 5;
/**
 * Work units per (word, document) run, on top of a walk's, when an anchor of several words is
 * collected: its runs are sorted by document first, then read in that order, a jump into
 * another word's positions each (measured at 498k on the 4,949 words ending in `tion`, 1.3
 * million runs: sorting 43 ns a run, reading as dear as walking them).
 */
export const GATHER_COST = 20;
/**
 * Work units per occurrence of a pair's first word: a sequential read of its position and
 * of its successor byte, and a table lookup; the starts the code rejects touch nothing else.
 */
export const PAIR_COST = 3;

/**
 * A step verifying two consecutive parts at once: `part` is one anchor word (it has successor
 * codes), and the code of what follows each of its occurrences says whether part `part + 1`
 * is there (see `successors.ts`).
 */
export interface PairStep {
  readonly kind: 'pair';
  readonly part: number;
  readonly word: number;
  /** Offset of the word's codes in `successors.codes`. */
  readonly codesAt: number;
  /** Part `part + 1` in codes; its exact last word, when counted whole, is always "maybe" unless it has its own code. */
  readonly classes: CodeClasses;
  /** The own code of the word counted whole at part `part + 1`, else -1. */
  readonly wholeCode: number;
  /** Estimated work with the documents left (for the anchor: all of them). */
  readonly cost: number;
}

export type JoinStep = { readonly kind: 'plain'; readonly part: number } | PairStep;

export interface JoinPlan {
  /** The first step: its starts are the candidates. */
  readonly anchor: JoinStep;
  /** The other parts, cheapest first. */
  readonly order: readonly number[];
  /** The estimated work of the whole join, in work units (about a position read each). */
  readonly estimate: number;
  /** The cheapest pair step that would verify part `c` (with a neighbour not yet verified or already), or null. */
  pairFor(c: number, covered: readonly boolean[], segments: number): PairStep | null;
}

/**
 * Chooses how a phrase's parts are joined: from the cheapest part's occurrences (`plain`), or
 * from an anchor word's occurrences and their successor codes (`pair`, two parts in one
 * read), whichever the estimated work of the whole join (the other parts read or looked up
 * in the documents the anchor leaves) says is cheaper. `wholeLast` is the last part's word
 * counted whole (counting mode), else negative.
 */
export function planJoin(index: IndexData, parts: readonly Uint32Array[], wholeLast: number): JoinPlan {
  const { postings, successors, n } = index;
  const k = parts.length;
  const occurrences = (words: Uint32Array) => {
    let total = 0;
    for (let i = 0; i < words.length; i++) total += postings.positionsAt[words[i]! + 1]! - postings.positionsAt[words[i]!]!;
    return total;
  };
  /** The words' (word, document) runs: the documents they hold, counted with repeats. */
  const runs = (words: Uint32Array) => {
    let total = 0;
    for (let i = 0; i < words.length; i++) total += postings.df[words[i]!]!;
    return total;
  };
  const docs = (words: Uint32Array) => Math.min(runs(words), n);
  /** Reading `words` against `segments` documents: per word, the cheaper of its walk and lookups. */
  const readCost = (words: Uint32Array, segments: number) => {
    let total = 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      total += Math.min((postings.df[w]! + postings.positionsAt[w + 1]! - postings.positionsAt[w]!) * WALK_COST, segments * LOOKUP_COST);
    }
    return total;
  };
  const cost = parts.map(occurrences);

  // Pair steps possible at each part (its one word has successor codes, a part follows).
  const pairs: (Omit<PairStep, 'cost'> | null)[] = parts.map((words, c) => {
    if (c === k - 1 || words.length !== 1) return null;
    const word = words[0]!;
    const codesAt = successors.codesOf(word);
    if (codesAt < 0) return null;
    const whole = c + 1 === k - 1 ? wholeLast : -1;
    const wholeCode = whole >= 0 ? successors.codeOf(whole) : -1;
    const own = wholeCode >= 0 && (wholeCode & 1) === 1;
    const classes = successors.classify(parts[c + 1]!, index.vocabulary.size, whole >= 0 && !own ? wholeCode : -1);
    return { kind: 'pair', part: c, word, codesAt, classes, wholeCode: own ? wholeCode : -1 };
  });
  const pairCost = (pair: Omit<PairStep, 'cost'>, segments: number) =>
    Math.min(cost[pair.part]! * PAIR_COST, segments * LOOKUP_COST) + readCost(pair.classes.maybeWords, segments);

  /** Verifying part `c` in `segments` documents: read, or by a pair step with a neighbour. */
  const partCost = (c: number, segments: number) => {
    let best = readCost(parts[c]!, segments);
    for (const at of [c - 1, c]) {
      const pair = at >= 0 ? pairs[at] : null;
      if (pair !== null && pair !== undefined) best = Math.min(best, pairCost(pair, segments));
    }
    return best;
  };
  // All positions of the catalogue: the anchor's starts are estimated as if words were independent.
  const total = Math.max(1, postings.positions.length);

  let plain = 0;
  for (let c = 1; c < k; c++) if (cost[c]! < cost[plain]!) plain = c;
  const plainDocs = docs(parts[plain]!);
  // One word's starts come in document order; several words' runs must be sorted, then read out of order.
  const plainRuns = parts[plain]!.length > 1 ? runs(parts[plain]!) : 0;
  let best = plainRuns > 0 ? (cost[plain]! + plainRuns) * WALK_COST + plainRuns * GATHER_COST : cost[plain]! * ANCHOR_COST;
  for (let c = 0; c < k; c++) if (c !== plain) best += partCost(c, plainDocs);
  let anchor: JoinStep = { kind: 'plain', part: plain };
  for (const pair of pairs) {
    if (pair === null) continue;
    // Its starts (written, then merged by every later step): the pair's expected occurrences.
    const starts = Math.min(cost[pair.part]!, (cost[pair.part]! * cost[pair.part + 1]!) / total);
    const left = Math.min(postings.df[pair.word]!, docs(parts[pair.part + 1]!), Math.ceil(starts));
    let estimate = cost[pair.part]! * PAIR_COST + starts * WALK_COST + readCost(pair.classes.maybeWords, left);
    for (let c = 0; c < k; c++) if (c !== pair.part && c !== pair.part + 1) estimate += partCost(c, left);
    if (estimate < best) {
      best = estimate;
      anchor = { ...pair, cost: estimate };
    }
  }
  const order = parts
    .map((_, c) => c)
    .filter((c) => c !== anchor.part)
    .sort((a, b) => cost[a]! - cost[b]!);
  return {
    anchor,
    order,
    estimate: best,
    pairFor(c, covered, segments) {
      let found: PairStep | null = null;
      for (const at of [c - 1, c]) {
        const pair = at >= 0 ? pairs[at] : null;
        if (pair === null || pair === undefined) continue;
        // A pair verifies both its parts: it must not be the one step of a part verified already.
        if (covered[pair.part] === true && covered[pair.part + 1] === true) continue;
        const work = pairCost(pair, segments);
        if (found === null || work < found.cost) found = { ...pair, cost: work };
      }
      return found;
    },
  };
}
