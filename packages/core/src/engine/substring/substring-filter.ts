import { uint32Array } from '../alloc.js';
import { bitsetWords, popcount32 } from '../bits.js';
import type { IndexData } from '../builder.js';
import { EMPTY_SET, filterByBits, intersectSets, listSet, lowerBound, setHas, setSize, setToBits, setToList, type DocSet } from '../doc-set.js';
import { asciiBytes } from '../paper-store.js';
import { ANCHOR_COST, LOOKUP_COST, WALK_COST, type PartSeparators, type PhraseJoin } from '../phrase-join.js';
import { LAST, POSITION } from '../postings.js';
import { spend } from '../work-budget.js';
import { charSet, type FieldText } from './field-text.js';
import { foldRiskDocs } from './fold-risk.js';
import { readNeedle } from './needle.js';
import { canSearchRaw, prepareRawNeedle, rawContains, rawContainsAnyText } from './raw-search.js';
import type { Vocabulary } from '../vocabulary.js';
import { wordsFor, type RunMatch } from './word-sets.js';
import { hasDeferredTables } from '../deferred-tables.js';

/** The text fields a substring filter reads. */
export type TextField = 'title' | 'abstract';

/**
 * Work units of reading one document's field to check a needle. A unit is about one position
 * read in a walk of the postings (1.2 ns on the machine of docs/performance.md); reading a
 * field costs about 0.7 µs for a title, 3 µs for an abstract there (memory latency, mostly).
 */
const READ_COST: Record<TextField, number> = { title: 600, abstract: 2500 };

/**
 * Largest index with deferred tables whose substring filters read every candidate paper rather
 * than build the tables: a few milliseconds of reading at most, where building the tables on a
 * query thread took 15–40 ms for 500 papers (and each query thread builds its own).
 */
const READ_EACH_UP_TO = 1024;

/**
 * Work units of starting the walk of one more word, beyond its positions: its first reads miss
 * the caches (measured at 498k papers: the 11,000 rare words holding `th`, with 3.6 million
 * positions, took 50 ms to walk).
 */
const WORD_COST = 4000;

/**
 * The documents whose `field`, lower-cased, contains `needle` (already lower-cased): exactly
 * `text.toLowerCase().includes(needle)`, among `within` (all documents when null).
 *
 * - A needle of one ASCII letter or digit, or of ASCII characters that are neither (`", "`,
 *   `"("`), is answered by the field's character or separator sets alone.
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
  const read = (docs: Uint32Array) => readEach(index, field, needle, docs, text.nonAscii);
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
  // Necessary conditions, exact for every document: the needle's letters and digits are in the
  // field, its inner separators are separator runs of it, its edges end and start such runs.
  let candidates: DocSet = restrict ?? all;
  for (const set of neededChars(words)) candidates = intersectSets(candidates, text.chars.set(set), index.n);
  for (let c = 1; c < k; c++) candidates = intersectSets(candidates, separatorRuns(text, index.n, 'exact', separators[c]!), index.n);
  const first = separators[0]!;
  const last = separators[k]!;
  if (first !== '') candidates = intersectSets(candidates, separatorRuns(text, index.n, 'suffix', first), index.n);
  if (last !== '') candidates = intersectSets(candidates, separatorRuns(text, index.n, 'prefix', last), index.n);
  const count = setSize(candidates);
  if (count === 0) return EMPTY_SET;

  const matches = words.map((_, c) => partMatch(c, k, separators));
  const parts = words.map((word, c) => wordsFor(index, word, matches[c]!));
  if (parts.some((p) => p.length === 0)) return EMPTY_SET;
  // Reading the candidates, or the word positions: whichever is cheaper.
  const inWord = k === 1 && first === '' && last === '';
  const cost = inWord ? occursInCost(index, parts[0]!) : joinCost(index, parts, count);
  if (count * READ_COST[field] <= cost) return listSet(read(setToList(candidates)));
  const narrowed = candidates.kind === 'all' ? null : candidates;
  if (inWord) return within_(occursIn(index, text, field, words[0]!, parts[0]!, read, candidates), narrowed, index.n);
  const rules = parts.map((_, c): PartSeparators => ({
    before: c === 0 ? nonEmpty(first) : separators[c]!,
    beforeIsEdge: c === 0,
    after: c === k - 1 ? nonEmpty(last) : separators[c + 1]!,
    afterIsEdge: c === k - 1,
  }));
  const { yes, verify } = join.status(parts, field, rules, text.nonAscii, narrowed, READ_COST[field]);
  // Oversize documents carry no positions: the join cannot see them, so they are read.
  const oversize = narrowed === null ? index.layout.oversize : index.layout.oversize.filter((d) => setHas(narrowed, d));
  const unsure = union(verify, oversize);
  return union(yes, read(unsure.kind === 'list' ? unsure.docs : verify));
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

/** About what {@link occursIn} costs at most: the common words' field sets, the other words' walks. */
function occursInCost(index: IndexData, words: Uint32Array): number {
  const { postings, commonWords } = index;
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    total += commonWords.slot(w) >= 0 ? bitsetWords(index.n) : WORD_COST + postings.df[w]! + postings.positionsAt[w + 1]! - postings.positionsAt[w]!;
  }
  return total;
}

/** How run `c` of `k` must meet its word, given the separators around it. */
function partMatch(c: number, k: number, separators: readonly string[]): RunMatch {
  const openBefore = c === 0 && separators[0] === ''; // the word may start before the needle
  const openAfter = c === k - 1 && separators[k] === ''; // and may go on after it
  if (openBefore && openAfter) return 'contains';
  if (openBefore) return 'suffix';
  if (openAfter) return 'prefix';
  return 'exact';
}

function nonEmpty(separator: string): string | null {
  return separator === '' ? null : separator;
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

/**
 * The documents where one of `words` stands inside `field`: for ASCII text that is the answer
 * (the needle is part of a word); non-ASCII documents found so are read.
 *
 * The words are walked commonest first, and once the `candidates` not found yet are cheaper
 * to read than the words left to walk, those are read instead: a short needle (`th`) is in
 * tens of thousands of words with millions of positions, but its commonest word (`the`)
 * alone finds it in almost every document.
 */
function occursIn(
  index: IndexData,
  text: FieldText,
  field: TextField,
  run: string,
  unordered: Uint32Array,
  read: (docs: Uint32Array) => Uint32Array,
  candidates: DocSet,
): DocSet {
  const { postings, layout, n } = index;
  const { positions } = postings;
  const bits = uint32Array(bitsetWords(n));
  const titleLength = layout.titleLength;
  const abstractLength = layout.abstractLength;
  const common = index.commonWords;
  const walkCost = (w: number) => WORD_COST + postings.df[w]! + postings.positionsAt[w + 1]! - postings.positionsAt[w]!;
  // The common words first: each is one set of the field, read at once, and they find most
  // documents; then the others by their walks, dearest first.
  const words = byKeyDescending(unordered, (w) => (common.slot(w) >= 0 ? Number.MAX_VALUE : walkCost(w)));
  let left = 0;
  for (let x = 0; x < words.length; x++) if (common.slot(words[x]!) < 0) left += walkCost(words[x]!);
  const wanted = setToBits(candidates, n);
  // Counting the documents still to find costs a pass over the bitset: done before a word
  // that costs more than that, or after many cheaper ones.
  const checkCost = bits.length;
  let sinceCheck = 0;
  let rest = n;
  const inField = (d: number, off: number) => {
    const title = titleLength[d]!;
    const from = field === 'title' ? 0 : title + 1;
    const to = field === 'title' ? title - 1 : title + abstractLength[d]!;
    for (;;) {
      const v = positions[off++]!;
      const q = v & POSITION;
      if (q >= from && q <= to) return true;
      if ((v & LAST) !== 0) return false;
    }
  };
  for (let x = 0; x < words.length; x++) {
    const w = words[x]!;
    const df = postings.df[w]!;
    if (df === 0) continue;
    const slot = common.slot(w);
    if (slot >= 0) {
      const set = common.set(field, slot);
      spend(set.kind === 'bits' ? bits.length : setSize(set));
      orInto(bits, set);
      continue;
    }
    const cost = walkCost(w);
    sinceCheck += cost;
    // Right after the common words' sets (which find most documents), and then now and again.
    const afterCommon = x > 0 && common.slot(words[x - 1]!) >= 0;
    if (x > 0 && (afterCommon || cost >= checkCost || sinceCheck >= 16 * checkCost)) {
      sinceCheck = 0;
      spend(checkCost);
      rest = countMissing(wanted, bits);
      if (rest * READ_COST[field] < left) {
        for (const d of read(missing(wanted, bits))) bits[d >>> 5]! |= 1 << (d & 31);
        break;
      }
    }
    left -= cost;
    if (x > 0 && rest * LOOKUP_COST < cost) {
      // Few documents are still to find: this word's runs are looked up in those only.
      spend(df + rest * LOOKUP_COST);
      lookUpMissing(index, w, wanted, bits, inField);
      continue;
    }
    spend(cost);
    let off = postings.positionsAt[w]!;
    const dense = postings.dense[w] === 1;
    const set = dense ? postings.bitsOf(w) : null;
    const listAt = postings.docsAt[w]!;
    let j = dense ? -1 : listAt;
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
        if (j >= listAt + df) break;
        d = postings.listDocs[j++]!;
      }
      if ((visited & 4095) === 4095) spend(0);
      const title = titleLength[d]!;
      const from = field === 'title' ? 0 : title + 1;
      const to = field === 'title' ? title - 1 : title + abstractLength[d]!;
      let inside = false;
      for (;;) {
        const v = positions[off++]!;
        const q = v & POSITION;
        if (q >= from && q <= to) inside = true;
        if ((v & LAST) !== 0) break;
      }
      if (inside) bits[d >>> 5]! |= 1 << (d & 31);
    }
  }
  // Non-ASCII documents found may hold the run only once folded: those with a code point
  // that could do that are read. Oversize documents carry no positions (the field is
  // unknown): all of them are read.
  const risky = foldRiskDocs(text, run, n);
  const unsure = union(filterByBits(filterByBits(text.nonAscii, bits), risky), layout.oversize);
  if (unsure.kind !== 'list' || unsure.docs.length === 0) return bitsToSet(bits);
  for (const d of unsure.docs) bits[d >>> 5]! &= ~(1 << (d & 31));
  for (const d of read(unsure.docs)) bits[d >>> 5]! |= 1 << (d & 31);
  return bitsToSet(bits);
}

/**
 * The documents of `docs` (ascending) whose field holds the needle, read from the stored JSON:
 * ASCII fields on their raw bytes (see raw-search.ts), other fields as decoded strings.
 * `nonAscii`: the documents whose field is not pure ASCII (`FieldText.nonAscii`), or null when
 * not known (every field is then read as possibly non-ASCII).
 */
function readEach(index: IndexData, field: TextField, needle: string, docs: Uint32Array, nonAscii: Uint32Array | null): Uint32Array {
  const { store } = index;
  const bytes = asciiBytes(needle);
  const raw = bytes !== null && canSearchRaw(bytes) ? prepareRawNeedle(bytes) : null;
  const kept = uint32Array(docs.length);
  let k = 0;
  let u = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    spend(READ_COST[field]);
    let ascii = false;
    if (nonAscii !== null) {
      while (u < nonAscii.length && nonAscii[u]! < d) u++;
      ascii = u >= nonAscii.length || nonAscii[u] !== d;
    }
    let found: boolean | null = null;
    if (raw !== null) found = ascii ? rawContains(store.chunk(d), store.fieldStart(d, field), raw) : rawContainsAnyText(store.chunk(d), store.fieldStart(d, field), raw);
    found ??= field === 'title' ? store.titleContains(d, needle, bytes) : store.abstractContains(d, needle, bytes);
    if (found) kept[k++] = d;
  }
  return kept.subarray(0, k);
}

function indexOf(sorted: Uint32Array, value: number): number {
  const i = lowerBound(sorted, value, 0, sorted.length);
  return i < sorted.length && sorted[i] === value ? i : -1;
}

/**
 * Marks in `found` the documents of `wanted` not found yet where word `w` stands in the field
 * (`inField`, given its run's offset): its documents are read, its positions only there.
 */
function lookUpMissing(index: IndexData, w: number, wanted: Uint32Array, found: Uint32Array, inField: (d: number, off: number) => boolean): void {
  const { postings } = index;
  const df = postings.df[w]!;
  if (postings.dense[w] === 1) {
    const bits = postings.bitsOf(w);
    for (let i = 0; i < bits.length; i++) {
      let v = bits[i]! & wanted[i]! & ~found[i]!;
      while (v !== 0) {
        const t = v & -v;
        v ^= t;
        const d = (i << 5) + 31 - Math.clz32(t);
        if (inField(d, postings.pairOffset(w, postings.rank(w, d)))) found[i]! |= t;
      }
    }
    return;
  }
  const at = postings.docsAt[w]!;
  const docs = postings.listDocs;
  for (let j = at; j < at + df; j++) {
    const d = docs[j]!;
    const bit = 1 << (d & 31);
    if ((wanted[d >>> 5]! & ~found[d >>> 5]! & bit) !== 0 && inField(d, postings.pairOffset(w, j - at))) found[d >>> 5]! |= bit;
  }
}

/** `words` by `key`, largest first (keys computed once: there may be tens of thousands of words). */
function byKeyDescending(words: Uint32Array, key: (w: number) => number): Uint32Array {
  const keys = Float64Array.from(words, key);
  const order = Uint32Array.from(words.keys()).sort((a, b) => keys[b]! - keys[a]! || a - b);
  return Uint32Array.from(order, (i) => words[i]!);
}

/** Whether word `w` of `words` ends with `suffix`. */
function endsWith(words: Vocabulary, w: number, suffix: string): boolean {
  const end = words.starts[w + 1]!;
  if (end - words.starts[w]! < suffix.length) return false;
  for (let i = 1; i <= suffix.length; i++) if (words.chars[end - i] !== suffix.charCodeAt(suffix.length - i)) return false;
  return true;
}

/** Adds the documents of `set` to `bits`. */
function orInto(bits: Uint32Array, set: DocSet): void {
  if (set.kind === 'bits') for (let i = 0; i < bits.length; i++) bits[i]! |= set.bits[i]!;
  else if (set.kind === 'list') for (let i = 0; i < set.docs.length; i++) bits[set.docs[i]! >>> 5]! |= 1 << (set.docs[i]! & 31);
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

/** The union of two ascending lists, as a list set. */
function union(a: Uint32Array, b: Uint32Array): DocSet {
  if (b.length === 0) return listSet(a);
  if (a.length === 0) return listSet(b);
  const out = uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a[i]! : Infinity;
    const y = j < b.length ? b[j]! : Infinity;
    if (x <= y) {
      out[k++] = x;
      i++;
      if (x === y) j++;
    } else {
      out[k++] = y;
      j++;
    }
  }
  return listSet(out.subarray(0, k));
}

function bitsToSet(bits: Uint32Array): DocSet {
  let count = 0;
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i]!;
    while (v !== 0) {
      v &= v - 1;
      count++;
    }
  }
  return count === 0 ? EMPTY_SET : { kind: 'bits', bits, count };
}
