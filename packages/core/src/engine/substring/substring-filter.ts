import { uint32Array } from '../alloc.js';
import { bitsetWords } from '../bits.js';
import type { IndexData } from '../builder.js';
import { EMPTY_SET, filterByBits, intersectSets, listSet, setSize, setToList, type DocSet } from '../doc-set.js';
import { asciiBytes } from '../paper-store.js';
import type { PartSeparators, PhraseJoin } from '../phrase-join.js';
import { LAST, POSITION } from '../postings.js';
import { spend } from '../work-budget.js';
import { charSet, type FieldText } from './field-text.js';
import { readNeedle } from './needle.js';
import { wordsFor, type RunMatch } from './word-sets.js';

/** The text fields a substring filter reads. */
export type TextField = 'title' | 'abstract';

/** Work units (about one position read) of reading one document's field to check a needle. */
const READ_COST: Record<TextField, number> = { title: 60, abstract: 700 };

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
  const text = field === 'title' ? index.titleText : index.abstractText;
  const read = (docs: Uint32Array) => readEach(index, field, needle, docs);
  if (within !== null && within.kind !== 'all' && setSize(within) * READ_COST[field] < indexCost(index, needle)) {
    return listSet(read(setToList(within)));
  }
  const restrict = within !== null && within.kind === 'all' ? null : within;
  const parsed = readNeedle(needle);
  if (parsed.kind === 'unicode') {
    let candidates: DocSet = restrict ?? { kind: 'all', size: index.n };
    for (const point of parsed.codePoints) {
      const i = indexOf(text.unicode, point);
      if (i < 0) return EMPTY_SET;
      candidates = intersectSets(candidates, text.unicodeDocs.set(i), index.n);
    }
    return listSet(read(setToList(candidates)));
  }
  const { words, separators } = parsed;
  let found: DocSet;
  if (words.length === 0) found = separatorRuns(text, index.n, separators[0]!);
  else if (words.length === 1 && separators[0] === '' && separators[1] === '' && words[0]!.length === 1) {
    found = text.chars.set(charSet(words[0]!.charCodeAt(0)));
  } else if (words.length === 1 && separators[0] === '' && separators[1] === '') {
    found = occursIn(index, text, field, wordsFor(index, words[0]!, 'contains'), read);
  } else {
    const k = words.length;
    const parts = words.map((word, c) => wordsFor(index, word, partMatch(c, k, separators)));
    if (parts.some((p) => p.length === 0)) return EMPTY_SET;
    const rules = parts.map((_, c): PartSeparators => ({
      before: c === 0 ? nonEmpty(separators[0]!) : separators[c]!,
      beforeIsEdge: c === 0,
      after: c === k - 1 ? nonEmpty(separators[k]!) : separators[c + 1]!,
      afterIsEdge: c === k - 1,
    }));
    const { yes, verify } = join.status(parts, field, rules, text.nonAscii, restrict, READ_COST[field]);
    // Oversize documents carry no positions: the join cannot see them, so they are read.
    const unsure = union(verify, index.layout.oversize);
    found = union(yes, read(unsure.kind === 'list' ? unsure.docs : verify));
  }
  return restrict === null ? found : intersectSets(found, restrict, index.n);
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

/** Needles of separator characters only: every run of separators holding it (exact). */
function separatorRuns(text: FieldText, n: number, needle: string): DocSet {
  const { runs, runDocs } = text;
  spend(runs.chars.length);
  const bits = uint32Array(bitsetWords(n));
  let any = false;
  for (let r = 0; r < runs.size; r++) {
    if (!runs.word(r).includes(needle)) continue;
    any = true;
    const set = runDocs.set(r);
    spend(set.kind === 'bits' ? bits.length : setSize(set));
    if (set.kind === 'bits') for (let i = 0; i < bits.length; i++) bits[i]! |= set.bits[i]!;
    else if (set.kind === 'list') for (let i = 0; i < set.docs.length; i++) bits[set.docs[i]! >>> 5]! |= 1 << (set.docs[i]! & 31);
  }
  return any ? bitsToSet(bits) : EMPTY_SET;
}

/**
 * The documents where one of `words` stands inside `field`: for ASCII text that is the answer
 * (the needle is part of a word); non-ASCII documents found so are read.
 */
function occursIn(index: IndexData, text: FieldText, field: TextField, words: Uint32Array, read: (docs: Uint32Array) => Uint32Array): DocSet {
  const { postings, layout, n } = index;
  const { positions } = postings;
  const bits = uint32Array(bitsetWords(n));
  for (let x = 0; x < words.length; x++) {
    const w = words[x]!;
    const df = postings.df[w]!;
    if (df === 0) continue;
    spend(df + postings.positionsAt[w + 1]! - postings.positionsAt[w]!);
    let off = postings.positionsAt[w]!;
    const visit = (d: number) => {
      const title = layout.titleLength[d]!;
      const from = field === 'title' ? 0 : title + 1;
      const to = field === 'title' ? title - 1 : title + layout.abstractLength[d]!;
      let inside = false;
      for (;;) {
        const v = positions[off++]!;
        const q = v & POSITION;
        if (q >= from && q <= to) inside = true;
        if ((v & LAST) !== 0) break;
      }
      if (inside) bits[d >>> 5]! |= 1 << (d & 31);
    };
    if (postings.dense[w] === 1) {
      const set = postings.bitsOf(w);
      for (let j = 0; j < set.length; j++) {
        let y = set[j]!;
        while (y !== 0) {
          const t = y & -y;
          y ^= t;
          visit((j << 5) + 31 - Math.clz32(t));
        }
      }
    } else {
      const at = postings.docsAt[w]!;
      for (let j = at; j < at + df; j++) visit(postings.listDocs[j]!);
    }
  }
  // Non-ASCII documents found may hold the run only once folded: they are read. Oversize
  // documents carry no positions (the field is unknown): all of them are read.
  const unsure = union(filterByBits(text.nonAscii, bits), layout.oversize);
  if (unsure.kind !== 'list' || unsure.docs.length === 0) return bitsToSet(bits);
  for (const d of unsure.docs) bits[d >>> 5]! &= ~(1 << (d & 31));
  for (const d of read(unsure.docs)) bits[d >>> 5]! |= 1 << (d & 31);
  return bitsToSet(bits);
}

/** The documents of `docs` whose field holds the needle, read from the stored JSON. */
function readEach(index: IndexData, field: TextField, needle: string, docs: Uint32Array): Uint32Array {
  const { store } = index;
  const bytes = asciiBytes(needle);
  const kept = uint32Array(docs.length);
  let k = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    spend(READ_COST[field]);
    if (field === 'title' ? store.titleContains(d, needle, bytes) : store.abstractContains(d, needle, bytes)) kept[k++] = d;
  }
  return kept.subarray(0, k);
}

/** A rough count of the positions the index path reads for a needle, to compare with reading texts. */
function indexCost(index: IndexData, needle: string): number {
  const parsed = readNeedle(needle);
  if (parsed.kind !== 'ascii' || parsed.words.length === 0) return index.n / 8;
  const { positionsAt } = index.postings;
  let cheapest = Infinity;
  for (const word of parsed.words) {
    const w = index.vocabulary.find(word);
    const cost = w < 0 ? index.n / 8 : positionsAt[w + 1]! - positionsAt[w]!;
    cheapest = Math.min(cheapest, cost);
  }
  return cheapest;
}

function indexOf(sorted: Uint32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === value ? lo : -1;
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
