import { uint32Array } from '../alloc.js';
import { bitsetWords } from '../bits.js';
import type { IndexData } from '../builder.js';
import { EMPTY_SET, intersectSets, listSet, lowerBound, setHas, setSize, setToList, type DocSet } from '../doc-set.js';
import { asciiBytes } from '../paper-store.js';
import { ANCHOR_COST, LOOKUP_COST, WALK_COST, type PhraseJoin } from '../phrase-join.js';
import { spend } from '../work-budget.js';
import { charSet, edgeSet, gapSet, pairSet, type FieldText, type TextField } from './field-text.js';
import { nonEmpty, partMatch, partSeparators, readNeedle } from './needle.js';
import { canSearchRaw, prepareRawNeedle, rawContains, rawContainsAnyText, rawContainsShort } from './raw-search.js';
import type { Vocabulary } from '../vocabulary.js';
import { wordsFor, type RunMatch } from './word-sets.js';
import { READ_COST, walkWords, walkWordsCost, type EdgeSeparators } from './word-walk.js';
import { bitsToSet, orInto, union } from './doc-bits.js';
import { bitmapJoin, bitmapJoinCost } from './position-bitmap-join.js';
import { planJoin } from '../phrase-plan.js';
import { hasDeferredTables } from '../deferred-tables.js';

export type { TextField } from './field-text.js';

/**
 * Largest index with deferred tables whose substring filters read every candidate paper rather
 * than build the tables: a few milliseconds of reading at most, where building the tables on a
 * query thread took 15–40 ms for 500 papers (and each query thread builds its own).
 */
const READ_EACH_UP_TO = 1024;

/**
 * The documents whose `field`, lower-cased, contains `needle` (already lower-cased): exactly
 * `text.toLowerCase().includes(needle)`, among `within` (all documents when null).
 *
 * - A needle of one ASCII letter or digit, or of two that are a common pair the field keeps
 *   (`in`, `ti`), or of ASCII characters that are neither (`", "`, `"("`), or of a letter or
 *   digit beside a punctuation mark or a space (`e,`, `-b`, `e `), or of two characters around
 *   a space, one a letter or digit (`e t`, `, a`; in abstracts where the field keeps that set),
 *   is answered by the field's character, pair, separator, edge or gap sets alone.
 * - A needle with letters or digits is found through the word index: its runs of letters and
 *   digits must be words (or word ends, starts, parts) at consecutive positions of the field,
 *   and the separator flags of the positions prove or refute "one space" between them. Only
 *   the documents the flags cannot decide (other separators, non-ASCII text) are read.
 * - A needle with non-ASCII characters is looked for in the documents holding all of them.
 *
 * When `within` is small, reading those few documents is cheaper, and done instead.
 */
export function substringMatches(index: IndexData, join: PhraseJoin, field: TextField, needle: string, within: DocSet | null): DocSet {
  const restrict = within !== null && within.kind === 'all' ? null : within;
  const all: DocSet = { kind: 'all', size: index.n };
  // A write's small delta: its few papers are read, and its tables never built (see `deferred-tables.ts`).
  if (hasDeferredTables(index) && index.n <= READ_EACH_UP_TO) return listSet(readEach(index, field, needle, setToList(restrict ?? all), null));
  const text = field === 'title' ? index.titleText : index.abstractText;
  let known: KnownText | null = null;
  const read = (docs: Uint32Array) => readEach(index, field, needle, docs, (known ??= knownText(text)));
  const parsed = readNeedle(needle);
  if (parsed.kind === 'unicode') {
    let candidates: DocSet = restrict ?? all;
    for (const point of parsed.codePoints) {
      const i = indexOf(text.unicode, point);
      if (i < 0) return EMPTY_SET;
      candidates = intersectSets(candidates, text.unicodeDocs.set(i), index.n);
    }
    return listSet(read(setToList(candidates)));
  }
  const { words, separators } = parsed;
  const k = words.length;
  // Exact from the field's sets alone.
  if (k === 0) return within_(separatorRuns(text, index.n, 'contains', separators[0]!), restrict, index.n);
  if (k === 1 && separators[0] === '' && separators[1] === '' && words[0]!.length === 1) {
    return within_(text.chars.set(charSet(words[0]!.charCodeAt(0))), restrict, index.n);
  }
  // Two letters or digits (`in`, `ti`), when the field keeps that pair's set: its set.
  if (k === 1 && separators[0] === '' && separators[1] === '' && words[0]!.length === 2) {
    const pair = pairOf(text, words[0]!, 1);
    if (pair >= 0) return within_(text.pairs.set(pair), restrict, index.n);
  }
  // A letter or digit beside a punctuation mark or a space (`e,`, `-b`, `e `): its edge set.
  const edge = needle.length === 2 ? edgeSet(needle.charCodeAt(0), needle.charCodeAt(1)) : -1;
  if (edge >= 0) return within_(text.edges.set(edge), restrict, index.n);
  // A character, a space, a character (`e t`, `, a`), when the field keeps that gap set: its set.
  const gap = needle.length === 3 ? gapOf(text, needle, 1) : -1;
  if (gap >= 0) return within_(text.gaps.set(gap), restrict, index.n);
  // Necessary conditions, exact for every document: the needle's letters and digits are in the
  // field, its inner separators are separator runs of it, its edges end and start such runs.
  let candidates: DocSet = restrict ?? all;
  for (const set of neededChars(words)) candidates = intersectSets(candidates, text.chars.set(set), index.n);
  for (const set of neededPairs(text, words)) candidates = intersectSets(candidates, text.pairs.set(set), index.n);
  for (let c = 1; c < k; c++) candidates = intersectSets(candidates, separatorRuns(text, index.n, 'exact', separators[c]!), index.n);
  const first = separators[0]!;
  const last = separators[k]!;
  if (first !== '') candidates = intersectSets(candidates, separatorRuns(text, index.n, 'suffix', first), index.n);
  if (last !== '') candidates = intersectSets(candidates, separatorRuns(text, index.n, 'prefix', last), index.n);
  // And each letter or digit beside a mark or a space in it, side by side in the field.
  for (let i = 1; i < needle.length; i++) {
    const set = edgeSet(needle.charCodeAt(i - 1), needle.charCodeAt(i));
    if (set >= 0) candidates = intersectSets(candidates, text.edges.set(set), index.n);
    const gap = gapOf(text, needle, i);
    if (gap >= 0) candidates = intersectSets(candidates, text.gaps.set(gap), index.n);
  }
  const count = setSize(candidates);
  if (count === 0) return EMPTY_SET;

  const matches = words.map((_, c) => partMatch(c, k, separators));
  const parts = words.map((word, c) => wordsFor(index, word, matches[c]!));
  if (parts.some((p) => p.length === 0)) return EMPTY_SET;
  // Reading the candidates, or the word positions: whichever is cheaper.
  // One run (`ti`, `e `, `(a`): a walk of its words, each word once, into bitsets.
  const edges: EdgeSeparators | null = k === 1 && (first !== '' || last !== '') ? { before: nonEmpty(first), after: nonEmpty(last) } : null;
  const cost = k === 1 ? walkWordsCost(index, parts[0]!, edges) : joinCost(index, parts, count);
  if (count * READ_COST[field] <= cost) return listSet(read(setToList(candidates)));
  const narrowed = candidates.kind === 'all' ? null : candidates;
  if (k === 1) return within_(walkWords(index, text, field, words[0]!, parts[0]!, edges, read, candidates), narrowed, index.n);
  const rules = partSeparators(separators);
  // The positional join, or one bit per position of the field when that is cheaper (`e t`: both
  // runs thousands of words, whose starts the positional join would gather and sort).
  const plan = planJoin(index, parts, -1);
  const { yes, verify } =
    bitmapJoinCost(index, field, parts) < plan.estimate
      ? bitmapJoin(index, field, parts, rules, text.nonAscii, narrowed)
      : join.status(parts, field, rules, text.nonAscii, narrowed, READ_COST[field], plan);
  // Oversize documents carry no positions: the join cannot see them, so they are read.
  const oversize = narrowed === null ? index.layout.oversize : index.layout.oversize.filter((d) => setHas(narrowed, d));
  const unsure = union(verify, oversize);
  return union(yes, read(unsure.kind === 'list' ? unsure.docs : verify));
}

/** The gap set of the space at `i` of `needle` with its neighbours, when `text` keeps that set, else -1. */
function gapOf(text: FieldText, needle: string, i: number): number {
  if (text.gapKept.length === 0 || i < 1 || i + 1 >= needle.length || needle.charCodeAt(i) !== 0x20) return -1;
  const set = gapSet(needle.charCodeAt(i - 1), needle.charCodeAt(i + 1));
  return set >= 0 && text.gapKept[set] === 1 ? set : -1;
}

/** The pair set of the characters at `i - 1` and `i` of `word`, when `text` keeps that set, else -1. */
function pairOf(text: FieldText, word: string, i: number): number {
  const set = pairSet(word.charCodeAt(i - 1), word.charCodeAt(i));
  return set >= 0 && text.pairKept[set] === 1 ? set : -1;
}

/** The distinct kept pair sets of the letters and digits side by side in `words`. */
function neededPairs(text: FieldText, words: readonly string[]): number[] {
  const sets = new Set<number>();
  for (const word of words) {
    for (let i = 1; i < word.length; i++) {
      const set = pairOf(text, word, i);
      if (set >= 0) sets.add(set);
    }
  }
  return [...sets];
}

/** `set` within `restrict` (all of it when there is no restriction). */
function within_(set: DocSet, restrict: DocSet | null, n: number): DocSet {
  return restrict === null ? set : intersectSets(set, restrict, n);
}

/** The character sets of the distinct letters and digits of `words`. */
function neededChars(words: readonly string[]): number[] {
  const sets = new Set<number>();
  for (const word of words) for (let i = 0; i < word.length; i++) sets.add(charSet(word.charCodeAt(i)));
  return [...sets];
}

/**
 * About what the join costs, in position reads: all the occurrences of its cheapest part,
 * then for each other part the cheaper of its occurrences and a lookup per candidate.
 */
function joinCost(index: IndexData, parts: readonly Uint32Array[], candidates: number): number {
  const { positionsAt, df } = index.postings;
  const costs = parts.map((words) => {
    let total = 0;
    for (let i = 0; i < words.length; i++) total += df[words[i]!]! + positionsAt[words[i]! + 1]! - positionsAt[words[i]!]!;
    return total;
  });
  const anchor = Math.min(...costs);
  let total = anchor * ANCHOR_COST;
  let skipped = false;
  for (const cost of costs) {
    if (cost === anchor && !skipped) {
      skipped = true;
      continue;
    }
    total += Math.min(cost * WALK_COST, candidates * LOOKUP_COST);
  }
  return total;
}

/**
 * The documents with a separator run of the field that is `separator` (`exact`), starts or
 * ends with it, or contains it: a union over the field's runs. The runs are sorted, so the
 * first two are a lookup and a range; the others compare code units in place (there are tens
 * of thousands of distinct runs, too many to make a string of each on every request).
 */
function separatorRuns(text: FieldText, n: number, how: RunMatch, separator: string): DocSet {
  const { runs, runDocs } = text;
  if (how === 'exact') {
    const r = runs.find(separator);
    return r < 0 ? EMPTY_SET : runDocs.set(r);
  }
  const [from, to] = how === 'prefix' ? runs.prefixRange(separator) : [0, runs.size];
  if (how !== 'prefix') spend(runs.chars.length);
  const bits = uint32Array(bitsetWords(n));
  let any = false;
  for (let r = from; r < to; r++) {
    if (how === 'suffix' ? !endsWith(runs, r, separator) : how === 'contains' && !runs.word(r).includes(separator)) continue;
    any = true;
    const set = runDocs.set(r);
    spend(set.kind === 'bits' ? bits.length : setSize(set));
    orInto(bits, set);
  }
  return any ? bitsToSet(bits) : EMPTY_SET;
}

/** What the field's tables say about its documents' text, for reading them (see {@link readEach}). */
interface KnownText {
  /** The documents whose field is not pure ASCII, ascending. */
  readonly nonAscii: Uint32Array;
  /**
   * Those that may hold `İ` (U+0130), whose lower case is `i` and a combining dot: the tables
   * hold the lower-cased text's code points, so these are the documents with that dot (U+0307).
   */
  readonly dottedI: Uint32Array;
}

function knownText(text: FieldText): KnownText {
  const i = indexOf(text.unicode, 0x307);
  return { nonAscii: text.nonAscii, dottedI: i < 0 ? new Uint32Array(0) : setToList(text.unicodeDocs.set(i)) };
}

/**
 * The documents of `docs` (ascending) whose field holds the needle, read from the stored JSON:
 * on the raw bytes (see raw-search.ts) unless lower-casing the field makes ASCII of what is not
 * (then as decoded strings). `known`: what the field's tables say (see {@link KnownText}), or
 * null when not known (every field is then read as possibly non-ASCII, possibly with `İ`).
 */
function readEach(index: IndexData, field: TextField, needle: string, docs: Uint32Array, known: KnownText | null): Uint32Array {
  const { store } = index;
  const bytes = asciiBytes(needle);
  const raw = bytes !== null && canSearchRaw(bytes) ? prepareRawNeedle(bytes) : null;
  const kept = uint32Array(docs.length);
  let k = 0;
  let u = 0;
  let l = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    spend(READ_COST[field]);
    let ascii = false;
    let dottedI = true;
    if (known !== null) {
      const { nonAscii, dottedI: dotted } = known;
      while (u < nonAscii.length && nonAscii[u]! < d) u++;
      ascii = u >= nonAscii.length || nonAscii[u] !== d;
      while (l < dotted.length && dotted[l]! < d) l++;
      dottedI = l < dotted.length && dotted[l] === d;
    }
    let found: boolean | null = null;
    if (raw !== null) {
      const json = store.chunk(d);
      const from = store.fieldStart(d, field);
      if (ascii) found = (field === 'title' ? rawContainsShort(json, from, raw) : undefined) ?? rawContains(json, from, raw);
      else found = rawContainsAnyText(json, from, raw, dottedI);
    }
    found ??= field === 'title' ? store.titleContains(d, needle, bytes) : store.abstractContains(d, needle, bytes);
    if (found) kept[k++] = d;
  }
  return kept.subarray(0, k);
}

function indexOf(sorted: Uint32Array, value: number): number {
  const i = lowerBound(sorted, value, 0, sorted.length);
  return i < sorted.length && sorted[i] === value ? i : -1;
}

/** Whether word `w` of `words` ends with `suffix`. */
function endsWith(words: Vocabulary, w: number, suffix: string): boolean {
  const end = words.starts[w + 1]!;
  if (end - words.starts[w]! < suffix.length) return false;
  for (let i = 1; i <= suffix.length; i++) if (words.chars[end - i] !== suffix.charCodeAt(suffix.length - i)) return false;
  return true;
}
