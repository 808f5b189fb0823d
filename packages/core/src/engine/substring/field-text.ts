import { uint16Array, uint32Array, uint8Array } from '../alloc.js';
import { DocSetTable } from '../doc-set-table.js';
import { Growable } from '../growable.js';
import { Vocabulary } from '../vocabulary.js';
import { ASCII_FOLD, WordTable, type WordCodes } from '../word-table.js';

/** The text fields a substring filter reads. */
export type TextField = 'title' | 'abstract';

/** Sets of {@link FieldText.chars}: `a`–`z` are 0–25, `0`–`9` are 26–35. */
export const CHAR_SETS = 36;

/** The set number of an ASCII letter or digit (lower case), or -1. */
export function charSet(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code >= 48 && code <= 57) return 26 + code - 48;
  return -1;
}

/** Printable ASCII characters that are neither letters nor digits, the space included: 33 of them. */
const MARKS = 33;
const MARK = new Int8Array(128).fill(-1);
{
  let p = 0;
  for (let c = 0x20; c < 0x7f; c++) if (charSet(c) < 0 && (c < 65 || c > 90)) MARK[c] = p++;
}

/** Sets of {@link FieldText.edges}: a letter or digit then a mark, and a mark then a letter or digit. */
export const EDGE_SETS = 2 * CHAR_SETS * MARKS;

/**
 * The edge set of the two lower-cased ASCII characters `a` then `b`, when one is a letter or
 * digit and the other a printable mark or a space ({@link MARK}), else -1.
 */
export function edgeSet(a: number, b: number): number {
  if (a >= 128 || b >= 128) return -1;
  const x = charSet(a);
  if (x >= 0) return MARK[b]! >= 0 ? x * MARKS + MARK[b]! : -1;
  const y = charSet(b);
  return y >= 0 && MARK[a]! >= 0 ? CHAR_SETS * MARKS + MARK[a]! * CHAR_SETS + y : -1;
}

/** Classes of a gap set's two sides: a letter or digit ({@link charSet}), or a printable mark or a space after them. */
const GAP_CLASSES = CHAR_SETS + MARKS;

/** Sets of {@link FieldText.gaps}: a character, one space, a character, at least one of the two a letter or digit (`e t`, `, a`). */
export const GAP_SETS = GAP_CLASSES * GAP_CLASSES;

/**
 * Which gap sets a field keeps (see {@link FieldText.gaps}): every one (titles), those whose
 * needle would otherwise cost much (abstracts), or none.
 */
export type GapSets = 'all' | 'dear' | 'none';

/** Titles keep every gap set, abstracts the dear ones. */
export const TITLE_GAPS: GapSets = 'all';
export const ABSTRACT_GAPS: GapSets = 'dear';

/**
 * A field with `'dear'` gap sets keeps the set of `x y` when the words ending in `x` and those
 * starting with `y` occur more than this many times per document in the field: about the
 * positions the join (or walk) without it would read. At 498k papers it keeps 457 of the
 * abstracts' sets (14 MB of the 27 MB all would take, what the memory target leaves room for):
 * `e t` (21 million positions) 600 → 0.5 ms there; the dearest left out (`m c`, `d "`) read
 * about 5 million and take 200–450 ms.
 */
export const DEAR_GAP_OCCURRENCES_PER_DOC = 10;

/** Per folded letter or digit (`ASCII_FOLD`'s codes), its {@link charSet}; -1 for 0 (not one). */
const FOLDED_CLASS = new Int8Array(128).map((_, code) => (code === 0 ? -1 : charSet(code)));

/**
 * The pairs of letters or digits side by side whose sets a field may keep (see
 * {@link FieldText.pairs}): the commonest pairs of English scientific text. A needle of two such
 * characters (`in`, `ti`) is in most words of the field, so finding it from the words means
 * walking thousands of them or reading most documents (`title=in`: 230-380 ms at 498k papers).
 */
const PAIR_CANDIDATES = [
  'th', 'he', 'in', 'er', 'an', 're', 'on', 'at', 'en', 'nd', 'ti', 'es', 'or', 'te', 'of', 'ed',
  'is', 'it', 'al', 'ar', 'st', 'to', 'nt', 'ng', 'se', 'ha', 'as', 'ou', 'io', 'le', 've', 'co',
  'me', 'de', 'hi', 'ri', 'ro', 'ic', 'ne', 'ea', 'ra', 'ce', 'li', 'ch', 'll', 'be', 'ma', 'si',
  'om', 'ur', 'ca', 'el', 'ta', 'la', 'ns', 'ge', 'ly', 'ei', 'pr', 'ac', 'ut', 'pe', 'mo', 'na',
] as const;

/** Sets of {@link FieldText.pairs}: one per pair of {@link PAIR_CANDIDATES}, 64 (two 32-bit masks per paper while building). */
export const PAIR_SETS = PAIR_CANDIDATES.length;

/** Per two {@link charSet}s (`36 * a + b`), the pair's set number, or -1. */
const PAIR_OF = new Int8Array(CHAR_SETS * CHAR_SETS).fill(-1);
PAIR_CANDIDATES.forEach((pair, i) => (PAIR_OF[charSet(pair.charCodeAt(0)) * CHAR_SETS + charSet(pair.charCodeAt(1))] = i));

/**
 * Per two folded codes (`ASCII_FOLD`, `128 * a + b`), the pair's set number, or -1: one lookup
 * per character while building (0, not a letter or digit, pairs with nothing).
 */
const PAIR_OF_FOLDED = new Int8Array(128 * 128).fill(-1);
for (let a = 1; a < 128; a++) {
  for (let b = 1; b < 128; b++) {
    const x = FOLDED_CLASS[a]!;
    const y = FOLDED_CLASS[b]!;
    if (x >= 0 && y >= 0) PAIR_OF_FOLDED[a * 128 + b] = PAIR_OF[x * CHAR_SETS + y]!;
  }
}

/** The pair set of two lower-cased characters, when both are ASCII letters or digits and the pair is a candidate, else -1. */
export function pairSet(a: number, b: number): number {
  const x = a < 128 ? charSet(a) : -1;
  const y = b < 128 ? charSet(b) : -1;
  return x < 0 || y < 0 ? -1 : PAIR_OF[x * CHAR_SETS + y]!;
}

/**
 * A field keeps the set of a pair held by more than this share of its documents, the commonest
 * {@link MAX_PAIRS_KEPT} of them: those are the pairs whose needles would read or walk the most.
 * Each such set is a bitset (n / 8 bytes): at most 2 MB a field at 498k papers.
 */
export const PAIR_KEPT_SHARE = 1 / 8;
export const MAX_PAIRS_KEPT = 32;

function gapClass(code: number): number {
  if (code >= 128) return -1;
  const set = charSet(code);
  return set >= 0 ? set : MARK[code]! >= 0 ? CHAR_SETS + MARK[code]! : -1;
}

/**
 * The gap set of the three lower-cased characters `a`, a space, `b`, when each is an ASCII
 * letter, digit, printable mark or space and not both are marks (a needle of marks alone is
 * answered by the separator runs), else -1.
 */
export function gapSet(a: number, b: number): number {
  const x = gapClass(a);
  const y = gapClass(b);
  if (x < 0 || y < 0 || (x >= CHAR_SETS && y >= CHAR_SETS)) return -1;
  return x * GAP_CLASSES + y;
}

/**
 * What one text field (title or abstract) holds, per document, for the substring filters:
 * computed on the lower-cased text itself, so each answers a question about
 * `text.toLowerCase().includes(needle)` exactly, for any text.
 */
export class FieldText {
  constructor(
    /** Per ASCII letter or digit ({@link charSet}): the documents whose lower-cased field holds it. */
    readonly chars: DocSetTable,
    /** Every maximal run of characters that are neither letters nor digits, sorted. */
    readonly runs: Vocabulary,
    /** Per run: the documents where it occurs as a maximal run. */
    readonly runDocs: DocSetTable,
    /** Every non-ASCII code point of the lower-cased fields, ascending. */
    readonly unicode: Uint32Array,
    /** Per code point of `unicode`: the documents holding it. */
    readonly unicodeDocs: DocSetTable,
    /** Documents whose field is not pure ASCII, ascending (their word positions carry no separator flags). */
    readonly nonAscii: Uint32Array,
    /**
     * Per pair of a letter or digit and a printable mark or a space, either way round
     * ({@link edgeSet}): the documents whose lower-cased field holds the two side by side (`e,`,
     * `-b`, `e `). Such a needle is answered from its set alone, and a longer one is narrowed by
     * the sets of its edges.
     */
    readonly edges: DocSetTable,
    /**
     * Per character, space, character ({@link gapSet}): the documents whose lower-cased field
     * holds the three side by side (`e t`, `, a`). Such a needle otherwise joins every word
     * ending in its first letter with every word starting with its last (or walks every word
     * starting with `a` after a comma), whatever the matches: tens of millions of positions in
     * abstracts. Only the sets marked in {@link gapKept} are kept (the others are empty).
     */
    readonly gaps: DocSetTable,
    /**
     * Per gap set, 1 when the field keeps it: every set in titles; in abstracts those whose
     * needle would read the most positions without it (all 4,761 would be 27 MB at 498k
     * papers; see {@link DEAR_GAP_OCCURRENCES_PER_DOC}). Empty for a field without gap sets.
     */
    readonly gapKept: Uint8Array,
    /**
     * Per pair of {@link PAIR_CANDIDATES} ({@link pairSet}): the documents whose lower-cased field
     * holds the two characters side by side, for the pairs marked in {@link pairKept} (the others
     * are empty). A needle of two letters or digits is answered from its set alone; a longer
     * one is narrowed by the sets of its pairs.
     */
    readonly pairs: DocSetTable,
    /** Per pair set, 1 when the field keeps it (see {@link PAIR_KEPT_SHARE}). */
    readonly pairKept: Uint8Array,
  ) {}
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const SPACE = 0x20;

/** What a {@link FieldTextBuilder} collected, as plain data (it crosses threads, see `parallel/`). */
export interface FieldTextParts {
  readonly letters: Uint32Array;
  readonly digits: Uint16Array;
  readonly ascii: Uint8Array;
  readonly runWords: WordCodes;
  readonly runIds: Uint32Array;
  readonly runStarts: Uint32Array;
  readonly unicode: Map<number, number[]>;
  readonly edgeIds: Uint16Array;
  readonly edgeStarts: Uint32Array;
  /** Which gap sets were collected (see {@link FieldText.gaps}), and per paper its distinct ones. */
  readonly gaps: GapSets;
  readonly gapIds: Uint16Array;
  readonly gapStarts: Uint32Array;
  /** Per paper two masks of the {@link PAIR_CANDIDATES} its field holds (sets 0-31, then 32-63). */
  readonly pairMasks: Uint32Array;
  /** Per letter or digit: how many words of the field end with it, and how many start with it (ASCII text). */
  readonly wordEnds: Float64Array;
  readonly wordStarts: Float64Array;
}

/**
 * Collects {@link FieldText} while papers are added (in input order); `finish` lays it out in
 * index order. Pure ASCII text is read from its character codes; other text (about 1% of
 * real titles and abstracts) is lower-cased and read by code point.
 */
export class FieldTextBuilder {
  private readonly letters = new Growable(uint32Array);
  private readonly digits = new Growable(uint16Array);
  private readonly ascii = new Growable(uint8Array);
  private readonly runTable = new WordTable();
  private readonly spaceRun: number;
  // The distinct runs of each paper, one after another, and where each paper's start.
  private readonly runIds = new Growable(uint32Array);
  private readonly runStarts = new Growable(uint32Array);
  private stamps = new Int32Array(1024);
  // The distinct edge sets of each paper, one after another, and where each paper's start.
  private readonly edgeIds = new Growable(uint16Array);
  private readonly edgeStarts = new Growable(uint32Array);
  private readonly edgeStamps = new Int32Array(EDGE_SETS);
  // The same for the gap sets, when kept.
  private readonly gapIds = new Growable(uint16Array);
  private readonly gapStarts = new Growable(uint32Array);
  private readonly gapStamps: Int32Array;
  // Per paper, two masks of the candidate pairs its field holds.
  private readonly pairMasks = new Growable(uint32Array);
  /** Non-ASCII code points per paper (by input number): few papers have any. */
  private readonly unicode = new Map<number, number[]>();

  // Per letter or digit, the words ending and starting with it (what a gap set saves, see `parts`).
  private readonly wordEnds = new Float64Array(CHAR_SETS);
  private readonly wordStarts = new Float64Array(CHAR_SETS);
  private readonly gaps: boolean;
  /** Whether the words' ends and starts are counted: only the `'dear'` choice reads them. */
  private readonly counting: boolean;

  /** `gaps`: which gap sets to keep (see {@link FieldText.gaps}). */
  constructor(private readonly gapSets: GapSets = 'none') {
    this.spaceRun = this.runTable.wordNumber(' ');
    this.gaps = gapSets !== 'none';
    this.counting = gapSets === 'dear';
    this.gapStamps = new Int32Array(this.gaps ? GAP_SETS : 0);
  }

  /** Adds the next paper's field; `isAscii` says whether the text is pure ASCII. */
  add(text: string, isAscii: boolean): void {
    const doc = this.letters.length;
    this.runStarts.push(this.runIds.length);
    this.edgeStarts.push(this.edgeIds.length);
    if (this.gaps) this.gapStarts.push(this.gapIds.length);
    this.ascii.push(isAscii ? 1 : 0);
    let letters = 0;
    let digits = 0;
    // The candidate pairs seen (two masks), and the previous character folded (0: not a letter or digit).
    let pairsLow = 0;
    let pairsHigh = 0;
    let previous = 0;
    if (isAscii) {
      const n = text.length;
      if (this.counting && n > 0) {
        const first = ASCII_FOLD[text.charCodeAt(0)]!;
        const last = ASCII_FOLD[text.charCodeAt(n - 1)]!;
        if (first !== 0) this.wordStarts[charSet(first)]!++;
        if (last !== 0) this.wordEnds[charSet(last)]!++;
      }
      for (let i = 0; i < n; ) {
        const c = text.charCodeAt(i);
        const folded = ASCII_FOLD[c]!;
        if (folded !== 0) {
          if (folded >= 97) letters |= 1 << (folded - 97);
          else digits |= 1 << (folded - 48);
          const pair = PAIR_OF_FOLDED[(previous << 7) | folded]!;
          if (pair >= 0) {
            if (pair >= 32) pairsHigh |= 1 << (pair - 32);
            else pairsLow |= 1 << pair;
          }
          previous = folded;
          i++;
          continue;
        }
        previous = 0;
        let j = i + 1;
        while (j < n && ASCII_FOLD[text.charCodeAt(j)] === 0) j++;
        const space = j - i === 1 && c === SPACE;
        this.addRun(doc, space ? this.spaceRun : this.runTable.sliceNumber(text, i, j));
        if (this.gaps) {
          // The words the run ends and starts, and its spaces' gap sets: one space between two
          // letters or digits (most runs) at once, a longer run character by character.
          const before = i > 0 ? FOLDED_CLASS[ASCII_FOLD[text.charCodeAt(i - 1)]!]! : -1;
          const after = j < n ? FOLDED_CLASS[ASCII_FOLD[text.charCodeAt(j)]!]! : -1;
          if (this.counting) {
            if (before >= 0) this.wordEnds[before]!++;
            if (after >= 0) this.wordStarts[after]!++;
          }
          if (space) {
            if (before >= 0 && after >= 0) this.addGap(doc, before * GAP_CLASSES + after);
          } else this.addRunGaps(doc, text, i, j);
        }
        // A maximal run: a letter or digit stands before and after it (unless at an end).
        if (i > 0) this.addEdge(doc, edgeSet(ASCII_FOLD[text.charCodeAt(i - 1)]!, c));
        if (j < n) this.addEdge(doc, edgeSet(text.charCodeAt(j - 1), ASCII_FOLD[text.charCodeAt(j)]!));
        i = j;
      }
    } else {
      const points: number[] = [];
      let run = '';
      const lower = text.toLowerCase();
      for (let i = 1; i < lower.length; i++) this.addEdge(doc, edgeSet(lower.charCodeAt(i - 1), lower.charCodeAt(i)));
      if (this.gaps) {
        for (let i = 1; i + 1 < lower.length; i++) if (lower.charCodeAt(i) === SPACE) this.addGap(doc, gapSet(lower.charCodeAt(i - 1), lower.charCodeAt(i + 1)));
      }
      for (const ch of lower) {
        const code = ch.codePointAt(0)!;
        const set = code < 128 ? charSet(code) : -1;
        if (set >= 26) digits |= 1 << (set - 26);
        else if (set >= 0) letters |= 1 << set;
        const folded = code < 128 ? ASCII_FOLD[code]! : 0;
        const pair = PAIR_OF_FOLDED[(previous << 7) | folded]!;
        if (pair >= 32) pairsHigh |= 1 << (pair - 32);
        else if (pair >= 0) pairsLow |= 1 << pair;
        previous = folded;
        if (code >= 128 && !points.includes(code)) points.push(code);
        if (set >= 0 || (code >= 128 && LETTER_OR_DIGIT.test(ch))) {
          if (run !== '') this.addRun(doc, this.runTable.wordNumber(run));
          run = '';
        } else run += ch;
      }
      if (run !== '') this.addRun(doc, this.runTable.wordNumber(run));
      if (points.length > 0) this.unicode.set(doc, points);
    }
    this.letters.push(letters >>> 0);
    this.digits.push(digits);
    this.pairMasks.push(pairsLow >>> 0);
    this.pairMasks.push(pairsHigh >>> 0);
  }

  private addRun(doc: number, id: number): void {
    if (id >= this.stamps.length) {
      const grown = new Int32Array(Math.max(id + 1, this.stamps.length * 2));
      grown.set(this.stamps);
      this.stamps = grown;
    }
    if (this.stamps[id] === doc + 1) return;
    this.stamps[id] = doc + 1;
    this.runIds.push(id);
  }

  private addEdge(doc: number, set: number): void {
    if (set < 0 || this.edgeStamps[set] === doc + 1) return;
    this.edgeStamps[set] = doc + 1;
    this.edgeIds.push(set);
  }

  /** The gap sets of the spaces of the run `[i, j)` of pure ASCII `text`. */
  private addRunGaps(doc: number, text: string, i: number, j: number): void {
    const n = text.length;
    for (let p = Math.max(i, 1); p < j && p + 1 < n; p++) {
      if (text.charCodeAt(p) !== SPACE) continue;
      const a = text.charCodeAt(p - 1);
      const b = text.charCodeAt(p + 1);
      this.addGap(doc, gapSet(ASCII_FOLD[a] || a, ASCII_FOLD[b] || b));
    }
  }

  private addGap(doc: number, set: number): void {
    if (set < 0 || this.gapStamps[set] === doc + 1) return;
    this.gapStamps[set] = doc + 1;
    this.gapIds.push(set);
  }

  /** What was collected, for {@link finishFieldText}. */
  parts(): FieldTextParts {
    return {
      letters: this.letters.array.subarray(0, this.letters.length),
      digits: this.digits.array.subarray(0, this.digits.length),
      ascii: this.ascii.array.subarray(0, this.ascii.length),
      runWords: this.runTable.codes(),
      runIds: this.runIds.array.subarray(0, this.runIds.length),
      runStarts: this.runStarts.array.subarray(0, this.runStarts.length),
      unicode: this.unicode,
      edgeIds: this.edgeIds.array.subarray(0, this.edgeIds.length),
      edgeStarts: this.edgeStarts.array.subarray(0, this.edgeStarts.length),
      gaps: this.gapSets,
      wordEnds: this.wordEnds,
      wordStarts: this.wordStarts,
      gapIds: this.gapIds.array.subarray(0, this.gapIds.length),
      gapStarts: this.gapStarts.array.subarray(0, this.gapStarts.length),
      pairMasks: this.pairMasks.array.subarray(0, this.pairMasks.length),
    };
  }

  /** The field's index, documents numbered by `order` (`order[d]` = input number of document `d`). */
  finish(order: Uint32Array): FieldText {
    return finishFieldText(this.parts(), order);
  }
}

/** The field's index from what a {@link FieldTextBuilder} collected, documents numbered by `order`. */
export function finishFieldText(parts: FieldTextParts, order: Uint32Array): FieldText {
  const n = order.length;
  const letters = parts.letters;
  const digits = parts.digits;
  const chars = DocSetTable.build(n, CHAR_SETS, (add) => {
    for (let d = 0; d < n; d++) {
      const input = order[d]!;
      let bits = letters[input]!;
      while (bits !== 0) {
        const t = bits & -bits;
        bits ^= t;
        add(d, 31 - Math.clz32(t));
      }
      bits = digits[input]!;
      while (bits !== 0) {
        const t = bits & -bits;
        bits ^= t;
        add(d, 26 + 31 - Math.clz32(t));
      }
    }
  });

  // Runs sorted, so the table reads like a vocabulary.
  const { vocabulary: runs, renumber: rank } = Vocabulary.sort(parts.runWords);
  const ids = parts.runIds;
  const starts = parts.runStarts;
  const total = ids.length;
  const runDocs = DocSetTable.build(n, runs.size, (add) => {
    for (let d = 0; d < n; d++) {
      const input = order[d]!;
      const end = input + 1 < starts.length ? starts[input + 1]! : total;
      for (let k = starts[input]!; k < end; k++) add(d, rank[ids[k]!]!);
    }
  });

  const numberOf = new Map<number, number>();
  const unicodeByDoc: number[][] = [];
  const ascii = parts.ascii;
  const nonAscii: number[] = [];
  for (let d = 0; d < n; d++) {
    const input = order[d]!;
    if (ascii[input] === 0) nonAscii.push(d);
    const points = parts.unicode.get(input);
    if (points !== undefined) {
      for (const p of points) if (!numberOf.has(p)) numberOf.set(p, 0);
      unicodeByDoc.push([d, ...points]);
    }
  }
  const unicode = Uint32Array.from([...numberOf.keys()].sort((a, b) => a - b));
  unicode.forEach((p, i) => numberOf.set(p, i));
  const unicodeDocs = DocSetTable.build(n, unicode.length, (add) => {
    for (const [d, ...points] of unicodeByDoc) for (const p of points) add(d!, numberOf.get(p)!);
  });
  const edges = DocSetTable.fromInputLists(n, EDGE_SETS, parts.edgeIds, parts.edgeStarts, order);
  const gapKept = keptGaps(parts, n);
  const gaps = DocSetTable.fromInputLists(n, gapKept.length, parts.gapIds, parts.gapStarts, order, gapKept);
  const pairKept = keptPairs(parts.pairMasks, n);
  const masks = parts.pairMasks;
  const keptLow = maskOf(pairKept, 0);
  const keptHigh = maskOf(pairKept, 32);
  const pairs = DocSetTable.build(n, PAIR_SETS, (add) => {
    for (let d = 0; d < n; d++) {
      const input = order[d]!;
      for (let half = 0; half < 2; half++) {
        let bits = masks[2 * input + half]! & (half === 0 ? keptLow : keptHigh);
        while (bits !== 0) {
          const t = bits & -bits;
          bits ^= t;
          add(d, 32 * half + 31 - Math.clz32(t));
        }
      }
    }
  });
  return new FieldText(chars, runs, runDocs, unicode, unicodeDocs, Uint32Array.from(nonAscii), edges, gaps, gapKept, pairs, pairKept);
}

/** Per pair set, 1 when the field keeps it: the commonest pairs above {@link PAIR_KEPT_SHARE} of `n` documents. */
function keptPairs(masks: Uint32Array, n: number): Uint8Array {
  const df = new Float64Array(PAIR_SETS);
  for (let k = 0; k < masks.length; k++) {
    let bits = masks[k]!;
    const base = (k & 1) * 32;
    while (bits !== 0) {
      const t = bits & -bits;
      bits ^= t;
      df[base + 31 - Math.clz32(t)]!++;
    }
  }
  const kept = new Uint8Array(PAIR_SETS);
  const commonest = Array.from({ length: PAIR_SETS }, (_, i) => i)
    .filter((i) => df[i]! > PAIR_KEPT_SHARE * n)
    .sort((a, b) => df[b]! - df[a]! || a - b)
    .slice(0, MAX_PAIRS_KEPT);
  for (const i of commonest) kept[i] = 1;
  return kept;
}

/** The 32-bit mask of the kept sets `from..from + 31`. */
function maskOf(kept: Uint8Array, from: number): number {
  let mask = 0;
  for (let i = 0; i < 32; i++) if (kept[from + i] === 1) mask |= 1 << i;
  return mask;
}

/** Per gap set, 1 when the field keeps it (see {@link FieldText.gapKept}); empty for a field without gap sets. */
function keptGaps(parts: FieldTextParts, n: number): Uint8Array {
  if (parts.gaps === 'none') return new Uint8Array(0);
  const kept = new Uint8Array(GAP_SETS);
  if (parts.gaps === 'all') return kept.fill(1);
  const { wordEnds, wordStarts } = parts;
  for (let x = 0; x < GAP_CLASSES; x++) {
    for (let y = 0; y < GAP_CLASSES; y++) {
      if (x >= CHAR_SETS && y >= CHAR_SETS) continue;
      const read = (x < CHAR_SETS ? wordEnds[x]! : 0) + (y < CHAR_SETS ? wordStarts[y]! : 0);
      if (read > DEAR_GAP_OCCURRENCES_PER_DOC * n) kept[x * GAP_CLASSES + y] = 1;
    }
  }
  return kept;
}

