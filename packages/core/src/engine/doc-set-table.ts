import { uint16Array, uint32Array, uint8Array } from './alloc.js';
import { bitsetWords, popcount32 } from './bits.js';
import { bitsSet, EMPTY_SET, listSet, type DocSet } from './doc-set.js';
import { decodeGrouped, groupCount, listGroupShape, orGroupedInto, seekGrouped } from './list-groups.js';

/** `dense` of a set stored as a bitset. */
const BITSET = 1;
/** `dense` of a set stored as a grouped list in `listLows` (see `list-groups.ts`). */
const GROUPED = 2;

/**
 * Numbered sets of documents, each a sorted list, or a bitset when it holds more than 1/16 of
 * the documents (then smaller). A list of a few dozen documents or more is kept as 16-bit low
 * halves grouped by their high bits (`list-groups.ts`, half the bytes), a shorter one as 32-bit
 * numbers. The postings without positions: used for the per-field character, separator, edge
 * and gap sets of the substring filters, the short prefixes' sets, and the facets' values.
 */
export class DocSetTable {
  readonly wordsPerSet: number;
  /** Number of groups of a grouped list. */
  readonly groups: number;

  constructor(
    readonly n: number,
    /** Documents in each set. */
    readonly df: Uint32Array,
    /** 32-bit list sets: offset in `listDocs`; grouped: of the header in `listLows`; dense sets: number of the bitset. */
    readonly docsAt: Uint32Array,
    /** 1 for a set stored as a bitset, 2 for a grouped list, 0 for a list in `listDocs`. */
    readonly dense: Uint8Array,
    readonly listDocs: Uint32Array,
    readonly bitsets: Uint32Array,
    /** The grouped lists: per set a header of `groups + 1` ranks, then its documents' low bits. */
    readonly listLows: Uint16Array,
    /** Low bits of a document kept in a grouped list. */
    readonly groupShift: number,
  ) {
    this.wordsPerSet = bitsetWords(n);
    this.groups = groupCount(n, groupShift);
  }

  /** Number of sets. */
  get size(): number {
    return this.df.length;
  }

  /** Set `i`: a view of the table (never mutate it), or for a grouped list a fresh list. */
  set(i: number): DocSet {
    const df = this.df[i]!;
    if (df === 0) return EMPTY_SET;
    const at = this.docsAt[i]!;
    const kind = this.dense[i];
    if (kind === BITSET) return bitsSet(this.bitsets.subarray(at * this.wordsPerSet, (at + 1) * this.wordsPerSet), df);
    if (kind === GROUPED) {
      const docs = new Uint32Array(df);
      decodeGrouped(this.listLows, at, this.groups, this.groupShift, docs, 0);
      return listSet(docs);
    }
    return listSet(this.listDocs.subarray(at, at + df));
  }

  /** Writes the documents of set `i`, which is not a bitset, into `out` from `at`. */
  copyList(i: number, out: Uint32Array, at: number): void {
    const df = this.df[i]!;
    if (df === 0) return;
    const from = this.docsAt[i]!;
    const kind = this.dense[i];
    if (kind === BITSET) throw new Error('paperlist: copyList of a bitset');
    if (kind === GROUPED) decodeGrouped(this.listLows, from, this.groups, this.groupShift, out, at);
    else out.set(this.listDocs.subarray(from, from + df), at);
  }

  /** Sets the bits of the documents of set `i` in `bits` (a bitset over the table's documents). */
  orInto(i: number, bits: Uint32Array): void {
    const df = this.df[i]!;
    if (df === 0) return;
    const at = this.docsAt[i]!;
    const kind = this.dense[i];
    if (kind === BITSET) {
      const words = this.wordsPerSet;
      const base = at * words;
      const sets = this.bitsets;
      for (let w = 0; w < words; w++) bits[w]! |= sets[base + w]!;
    } else if (kind === GROUPED) orGroupedInto(this.listLows, at, this.groups, this.groupShift, bits);
    else {
      const docs = this.listDocs;
      for (let k = at, end = at + df; k < end; k++) bits[docs[k]! >>> 5]! |= 1 << (docs[k]! & 31);
    }
  }

  /** How many documents of set `i` are in `bits` (a bitset over the table's documents). */
  countIn(i: number, bits: Uint32Array): number {
    const df = this.df[i]!;
    if (df === 0) return 0;
    const at = this.docsAt[i]!;
    const kind = this.dense[i];
    let count = 0;
    if (kind === BITSET) {
      const words = this.wordsPerSet;
      const base = at * words;
      const sets = this.bitsets;
      for (let w = 0; w < words; w++) count += popcount32(sets[base + w]! & bits[w]!);
    } else if (kind === GROUPED) {
      const lows = this.listLows;
      const { groups, groupShift } = this;
      const base = at + groups + 1;
      let k = 0;
      for (let g = 0; g < groups; g++) {
        const high = g << groupShift;
        for (const end = lows[at + g + 1]!; k < end; k++) {
          const d = high | lows[base + k]!;
          count += (bits[d >>> 5]! >>> (d & 31)) & 1;
        }
      }
    } else {
      const docs = this.listDocs;
      for (let k = at, end = at + df; k < end; k++) count += (bits[docs[k]! >>> 5]! >>> (docs[k]! & 31)) & 1;
    }
    return count;
  }

  /** Whether document `d` is in set `i`. */
  has(i: number, d: number): boolean {
    const df = this.df[i]!;
    if (df === 0) return false;
    const at = this.docsAt[i]!;
    const kind = this.dense[i];
    if (kind === BITSET) return (this.bitsets[at * this.wordsPerSet + (d >>> 5)]! & (1 << (d & 31))) !== 0;
    if (kind === GROUPED) return seekGrouped(this.listLows, at, this.groups, this.groupShift, d, 0) >= 0;
    let lo = at;
    let hi = at + df;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.listDocs[mid]! < d) lo = mid + 1;
      else hi = mid;
    }
    return lo < at + df && this.listDocs[lo] === d;
  }

  /**
   * A table of `sets` sets over `n` documents from a visit of its members: `visit(add)` must
   * call `add(d, set)` for every member, documents in ascending order, the same way each time
   * it is called (it is called twice: to count, then to fill).
   */
  static build(n: number, sets: number, visit: (add: (d: number, set: number) => void) => void): DocSetTable {
    const df = uint32Array(sets);
    visit((_d, set) => df[set]!++);
    const fill = new TableFill(n, df);
    visit((d, set) => fill.add(d, set));
    return fill.table();
  }

  /**
   * A table of `sets` sets from each input paper's distinct set numbers (`ids`, paper `p`'s from
   * `starts[p]`), documents numbered by `order` (`order[d]` = input number of document `d`); only
   * the sets marked in `kept`, when given. {@link build} without its callbacks, for the tables
   * with tens of millions of members (the edge and gap sets).
   */
  static fromInputLists(n: number, sets: number, ids: Uint16Array | Uint32Array, starts: Uint32Array, order: Uint32Array, kept?: Uint8Array): DocSetTable {
    const df = uint32Array(sets);
    for (let k = 0; k < ids.length; k++) if (kept === undefined || kept[ids[k]!] === 1) df[ids[k]!]!++;
    const fill = new TableFill(n, df);
    for (let d = 0; d < n; d++) {
      const input = order[d]!;
      const end = input + 1 < starts.length ? starts[input + 1]! : ids.length;
      for (let k = starts[input]!; k < end; k++) if (kept === undefined || kept[ids[k]!] === 1) fill.add(d, ids[k]!);
    }
    return fill.table();
  }
}

/** Lays out a {@link DocSetTable} of known set sizes, then takes its members, documents ascending. */
class TableFill {
  private readonly dense: Uint8Array;
  private readonly docsAt: Uint32Array;
  private readonly listDocs: Uint32Array;
  private readonly listLows: Uint16Array;
  private readonly bitsets: Uint32Array;
  /** Per set: where its next member goes (a grouped list: its rank so far, the header filled as groups begin). */
  private readonly cursor: Uint32Array;
  private readonly lastGroup: Int32Array;
  private readonly groups: number;
  private readonly shift: number;

  constructor(
    private readonly n: number,
    private readonly df: Uint32Array,
  ) {
    const sets = df.length;
    const wordsPerSet = bitsetWords(n);
    const shape = listGroupShape();
    this.shift = shape.shift;
    const groups = (this.groups = groupCount(n, shape.shift));
    const dense = (this.dense = uint8Array(sets));
    const docsAt = (this.docsAt = uint32Array(sets));
    let listTotal = 0;
    let lowsTotal = 0;
    let denseCount = 0;
    for (let s = 0; s < sets; s++) {
      const count = df[s]!;
      if (count * 16 > n) {
        dense[s] = BITSET;
        docsAt[s] = denseCount++;
      } else if (count >= shape.minDf && count < 0x10000) {
        // The header's ranks are 16-bit too: a grouped list holds fewer than 2^16 documents.
        dense[s] = GROUPED;
        docsAt[s] = lowsTotal;
        lowsTotal += groups + 1 + count;
      } else {
        docsAt[s] = listTotal;
        listTotal += count;
      }
    }
    this.listDocs = uint32Array(listTotal);
    this.listLows = uint16Array(lowsTotal);
    this.bitsets = uint32Array(denseCount * wordsPerSet);
    this.cursor = uint32Array(sets);
    this.lastGroup = new Int32Array(sets).fill(-1);
    for (let s = 0; s < sets; s++) this.cursor[s] = dense[s] === BITSET ? docsAt[s]! * wordsPerSet : dense[s] === GROUPED ? 0 : docsAt[s]!;
  }

  /** Document `d` is in `set` (each set's documents must come ascending). */
  add(d: number, set: number): void {
    const kind = this.dense[set];
    if (kind === BITSET) this.bitsets[this.cursor[set]! + (d >>> 5)]! |= 1 << (d & 31);
    else if (kind === GROUPED) {
      const header = this.docsAt[set]!;
      const rank = this.cursor[set]!++;
      const g = d >>> this.shift;
      // Groups without documents start at the rank of the next one that has some.
      for (let h = this.lastGroup[set]! + 1; h <= g; h++) this.listLows[header + h] = rank;
      this.lastGroup[set] = g;
      this.listLows[header + this.groups + 1 + rank] = d & ((1 << this.shift) - 1);
    } else this.listDocs[this.cursor[set]!++] = d;
  }

  table(): DocSetTable {
    const { df, dense, docsAt, listLows, groups, lastGroup } = this;
    for (let s = 0; s < df.length; s++) {
      if (dense[s] !== GROUPED) continue;
      for (let h = lastGroup[s]! + 1; h <= groups; h++) listLows[docsAt[s]! + h] = df[s]!;
    }
    return new DocSetTable(this.n, df, docsAt, dense, this.listDocs, this.bitsets, listLows, this.shift);
  }
}
