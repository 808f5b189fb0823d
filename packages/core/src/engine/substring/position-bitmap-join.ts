import { uint32Array } from '../alloc.js';
import { bitsetWords } from '../bits.js';
import type { IndexData } from '../builder.js';
import type { DocSet } from '../doc-set.js';
import { separatorState, VERIFY_STATE, NO_STATE, type PartSeparators } from '../phrase-join.js';
import { DENSE, GROUPED, LAST, POSITION } from '../postings.js';
import { spend } from '../work-budget.js';
import type { TextField } from './field-text.js';

/**
 * Work units per (word, document) run and per position a bitmap join reads. Measured at 498k
 * papers (`e t`: 10.1 million runs, 16 million positions, about 400 ms, a unit being about
 * 1.2 ns): a run costs its document's slots and its first read, a position its bit.
 */
export const BITMAP_RUN_COST = 25;
export const BITMAP_POSITION_COST = 5;

/** Work units per word and block: a word's cursor is looked at once per block of documents. */
const BITMAP_WORD_BLOCK_COST = 8;

/**
 * Positions per block of documents: each of the block's four bitmaps (the parts met so far,
 * and those of them only the text can prove, for this part and the one before) is 512 KiB.
 * Smaller blocks were slower at 498k papers (each word's cursor is looked at once a block,
 * 40,000 words for `e t`), one block for everything twice as slow (the bitmaps out of cache).
 */
export const BLOCK_POSITIONS = 1 << 22;

/** A cursor's next document once its word is read to its end. */
const NONE = 0x7fffffff;

/**
 * About what {@link bitmapJoin} costs, in the units of the other joins (about a position read
 * each): every position of every part's words, and each word's cursor once per block.
 */
export function bitmapJoinCost(index: IndexData, field: TextField, parts: readonly Uint32Array[]): number {
  const { positionsAt, df } = index.postings;
  const blocks = Math.ceil(fieldStarts(index, field)[index.n]! / BLOCK_POSITIONS);
  let total = 0;
  for (const words of parts) {
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      total += (positionsAt[w + 1]! - positionsAt[w]!) * BITMAP_POSITION_COST + df[w]! * BITMAP_RUN_COST + blocks * BITMAP_WORD_BLOCK_COST;
    }
  }
  return total;
}

/**
 * The documents where `parts` (each a set of words) stand at consecutive positions inside
 * `field`, the separator flags proving the needle's separators (`yes`), and those where only
 * the text can tell (`verify`: other separators, or documents in `unflagged`, whose text
 * carries no separator flags), each ascending; within `restrict` when given.
 *
 * Why: a needle of two short open runs (`e t`: every word ending in `e`, then every word
 * starting with `t`) holds thousands of words on each side, tens of millions of positions,
 * and the positional join gathers one side's starts by document and sorts them before the
 * other side can be looked up (over a second at 498k papers). Here every position of the
 * field has one bit: a part's pass sets the bit of each position where it stands after the
 * parts before it, so each part is one sequential read of its words' positions, whatever
 * their number, with no sort. The documents are taken in blocks whose bitmaps stay in the
 * cache; each word keeps its cursor from block to block.
 */
export function bitmapJoin(
  index: IndexData,
  field: TextField,
  parts: readonly Uint32Array[],
  rules: readonly PartSeparators[],
  unflagged: Uint32Array,
  restrict: DocSet | null,
  blockPositions = BLOCK_POSITIONS,
): { yes: Uint32Array; verify: Uint32Array } {
  const { n, postings } = index;
  const k = parts.length;
  const starts = fieldStarts(index, field);
  const unflaggedBits = uint32Array(bitsetWords(n));
  for (let i = 0; i < unflagged.length; i++) unflaggedBits[unflagged[i]! >>> 5]! |= 1 << (unflagged[i]! & 31);
  // Blocks of whole 32-document words of the bitsets, each ending once its positions fill the bitmap.
  const ends: number[] = [];
  let widest = 0;
  for (let from = 0; from < n; ) {
    let to = Math.min(n, from + 32);
    while (to < n && starts[Math.min(n, to + 32)]! - starts[from]! <= blockPositions) to = Math.min(n, to + 32);
    ends.push(to);
    widest = Math.max(widest, starts[to]! - starts[from]!);
    from = to;
  }
  const slots = bitsetWords(widest + 1);
  const pass: Pass = {
    index,
    starts,
    fieldIsTitle: field === 'title',
    restriction: restrict === null || restrict.kind === 'all' ? null : restrictionBits(restrict, n),
    unflagged: unflaggedBits,
    yes: uint32Array(bitsetWords(n)),
    verify: uint32Array(bitsetWords(n)),
    met: uint32Array(slots),
    metUnsure: uint32Array(slots),
    next: uint32Array(slots),
    nextUnsure: uint32Array(slots),
    base: 0,
    c: 0,
    k,
    table: new Uint8Array(4),
  };
  // Cursors per part and word, side by side so that a block's look at a word that has no
  // document in it is one sequential read: the next document (NONE when done), the next entry
  // (list index, or bitset word of a dense word) and the next position.
  const cursors = parts.map((words) => {
    const m = words.length;
    const nextDoc = new Uint32Array(m);
    const entry = new Uint32Array(m);
    const end = new Uint32Array(m);
    const off = new Uint32Array(m);
    const dense = new Uint8Array(m);
    const group = new Uint32Array(m);
    const { listLows, groups, groupShift } = postings;
    for (let i = 0; i < m; i++) {
      const w = words[i]!;
      const df = postings.df[w]!;
      off[i] = postings.positionsAt[w]!;
      dense[i] = postings.dense[w]!;
      if (dense[i] === GROUPED) {
        // Entries index `listLows`; `group` is the group of the next document.
        const header = postings.docsAt[w]!;
        entry[i] = header + groups + 1;
        end[i] = entry[i]! + df;
        let g = 0;
        while (listLows[header + g + 1] === 0) g++;
        group[i] = g;
        nextDoc[i] = df === 0 ? NONE : (g << groupShift) | listLows[entry[i]!]!;
        continue;
      }
      entry[i] = dense[i] === DENSE ? 0 : postings.docsAt[w]!;
      end[i] = dense[i] === DENSE ? 0 : postings.docsAt[w]! + df;
      nextDoc[i] = df === 0 ? NONE : dense[i] === DENSE ? 0 : postings.listDocs[entry[i]!]!;
    }
    return { nextDoc, entry, end, off, dense, group };
  });
  const tables = rules.map(stateTable);

  let from = 0;
  for (const to of ends) {
    pass.base = starts[from]!;
    const used = bitsetWords(starts[to]! - pass.base + 1);
    // Every part reads its runs of the block, found or not: its cursors must pass the block.
    for (let c = 0; c < k; c++) {
      pass.c = c;
      pass.table = tables[c]!;
      spend(passPart(pass, parts[c]!, cursors[c]!, to) * BITMAP_POSITION_COST);
      if (c < k - 1) {
        // This part's positions become the ones the next part must follow.
        const { met, metUnsure } = pass;
        met.fill(0, 0, used);
        metUnsure.fill(0, 0, used);
        pass.met = pass.next;
        pass.metUnsure = pass.nextUnsure;
        pass.next = met;
        pass.nextUnsure = metUnsure;
      }
    }
    pass.met.fill(0, 0, used);
    pass.metUnsure.fill(0, 0, used);
    from = to;
  }
  const { yes, verify } = pass;
  // Documents with a proof need no reading.
  for (let i = 0; i < verify.length; i++) verify[i] = verify[i]! & ~yes[i]!;
  return { yes: bitsList(yes), verify: bitsList(verify) };
}

/** The state of one part's pass over a block (one object, so that the run loop takes few arguments). */
interface Pass {
  readonly index: IndexData;
  readonly starts: Uint32Array;
  readonly fieldIsTitle: boolean;
  readonly restriction: Uint32Array | null;
  readonly unflagged: Uint32Array;
  /** Documents proven, and those to read (the last part's pass writes them). */
  readonly yes: Uint32Array;
  readonly verify: Uint32Array;
  /** Per position of the block: the parts before this one stand in a row ending there (and: only the text can prove it). */
  met: Uint32Array;
  metUnsure: Uint32Array;
  /** The same for this part, written by its pass. */
  next: Uint32Array;
  nextUnsure: Uint32Array;
  /** The block's first position. */
  base: number;
  /** The part, of `k`. */
  c: number;
  k: number;
  /** The part's separator states per flag value (see {@link stateTable}). */
  table: Uint8Array;
}

/** Where a part's words stand in their postings (see {@link bitmapJoin}), one entry per word. */
interface Cursors {
  readonly nextDoc: Uint32Array;
  readonly entry: Uint32Array;
  readonly end: Uint32Array;
  readonly off: Uint32Array;
  readonly dense: Uint8Array;
  /** A grouped list's group of its next document. */
  readonly group: Uint32Array;
}

/**
 * One part's pass over the block of documents before `to`: reads each word's runs of positions
 * there (moving its cursor past them) and marks each position of the word inside the field
 * that follows the parts before (its bit in `met`) for the next part, or, for the last part,
 * marks the document. Answers the number of positions read.
 *
 * The hot loop of the join, one run per (word, document) pair (ten million for `e t` at 498k
 * papers): everything it reads is in locals.
 */
function passPart(pass: Pass, words: Uint32Array, cursors: Cursors, to: number): number {
  const { index, starts, restriction, unflagged, met, metUnsure, next, nextUnsure, table, c, k, base, yes, verify } = pass;
  const { nextDoc, entry, end, off, dense, group } = cursors;
  const { postings, n } = index;
  const { positions, listDocs, listLows, groups, groupShift } = postings;
  const titleLength = index.layout.titleLength;
  const isTitle = pass.fieldIsTitle;
  const last = c === k - 1;
  let read = 0;
  for (let i = 0; i < words.length; i++) {
    let d = nextDoc[i]!;
    if (d >= to) continue;
    const isDense = dense[i] === DENSE;
    const isGrouped = dense[i] === GROUPED;
    const bits = isDense ? postings.bitsOf(words[i]!) : null;
    // A grouped list: its header, where its low bits start, and the group of entry j.
    const header = isGrouped ? postings.docsAt[words[i]!]! : 0;
    const lowsAt = header + groups + 1;
    let g = group[i]!;
    // A dense word's entry is the bitset word its block starts at (blocks are whole bitset words).
    const words32 = isDense ? Math.min(bits!.length, (to + 31) >>> 5) : 0;
    let j = entry[i]!;
    let y = isDense ? bits![j]! : 0;
    const stop = end[i]!;
    const at = off[i]!;
    let o = at;
    let first = true;
    for (;;) {
      if (isDense) {
        while (y === 0 && ++j < words32) y = bits![j]!;
        if (y === 0) {
          d = j << 5;
          break;
        }
        const t = y & -y;
        y ^= t;
        d = (j << 5) + 31 - Math.clz32(t);
      } else {
        if (!first) {
          if (++j >= stop) {
            d = NONE;
            break;
          }
          if (isGrouped) {
            while (j - lowsAt >= listLows[header + g + 1]!) g++;
            d = (g << groupShift) | listLows[j]!;
          } else d = listDocs[j]!;
          if (d >= to) break;
        }
        first = false;
      }
      const bit = 1 << (d & 31);
      if (restriction !== null && (restriction[d >>> 5]! & bit) === 0) {
        while ((positions[o++]! & LAST) === 0);
        continue;
      }
      // Slots of the document: its positions up to the field's end, then one unused slot.
      const slot0 = starts[d]! - base;
      const limit = starts[d + 1]! - base - 1;
      const noFlags = (unflagged[d >>> 5]! & bit) !== 0;
      for (;;) {
        const v = positions[o++]!;
        const slot = slot0 + (v & POSITION);
        if (slot < limit) {
          let state = noFlags ? VERIFY_STATE : table[(v >>> 13) & 3]!;
          if (c > 0) {
            const before = slot - 1;
            const b = 1 << (before & 31);
            if ((met[before >>> 5]! & b) === 0) state = NO_STATE;
            else if ((metUnsure[before >>> 5]! & b) !== 0) state |= VERIFY_STATE;
          }
          if ((state & NO_STATE) === 0) {
            if (last) {
              // An abstract's slots start with its title's: a row ending in the title is not the abstract's.
              if (isTitle || (v & POSITION) > titleLength[d]!) {
                if (state === 0) yes[d >>> 5]! |= bit;
                else verify[d >>> 5]! |= bit;
              }
            } else {
              next[slot >>> 5]! |= 1 << (slot & 31);
              if (state !== 0) nextUnsure[slot >>> 5]! |= 1 << (slot & 31);
            }
          }
        }
        if ((v & LAST) !== 0) break;
      }
    }
    entry[i] = j;
    group[i] = g;
    nextDoc[i] = d >= n ? NONE : d;
    off[i] = o;
    read += o - at;
  }
  return read;
}

/** Per value of an occurrence's two flags (bits 13 and 14 of a position), the rule's state. */
function stateTable(rule: PartSeparators): Uint8Array {
  const table = new Uint8Array(4);
  for (let flags = 0; flags < 4; flags++) table[flags] = separatorState(rule, flags << 13);
  return table;
}

function restrictionBits(set: DocSet, n: number): Uint32Array {
  if (set.kind === 'bits') return set.bits;
  const bits = uint32Array(bitsetWords(n));
  if (set.kind === 'list') for (let i = 0; i < set.docs.length; i++) bits[set.docs[i]! >>> 5]! |= 1 << (set.docs[i]! & 31);
  return bits;
}

function bitsList(bits: Uint32Array): Uint32Array {
  let count = 0;
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i]!;
    while (v !== 0) {
      v &= v - 1;
      count++;
    }
  }
  const out = uint32Array(count);
  let k = 0;
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i]!;
    while (v !== 0) {
      const t = v & -v;
      out[k++] = (i << 5) + 31 - Math.clz32(t);
      v ^= t;
    }
  }
  return out;
}

/** Per index and field, where each document's field starts among all documents' field positions. */
const STARTS = new WeakMap<IndexData, Partial<Record<TextField, Uint32Array>>>();

/**
 * Entry `d`: the number of field positions of the documents before `d`, each followed by one
 * unused slot (so a run of parts never reaches from one document into the next); `n + 1`
 * entries. Made once per index and field on the thread that joins (2 MB at 500k papers).
 */
function fieldStarts(index: IndexData, field: TextField): Uint32Array {
  let byField = STARTS.get(index);
  if (byField === undefined) STARTS.set(index, (byField = {}));
  const known = byField[field];
  if (known !== undefined) return known;
  const { n, layout } = index;
  const { titleLength, abstractLength } = layout;
  const title = field === 'title';
  const starts = new Uint32Array(n + 1);
  let total = 0;
  for (let d = 0; d < n; d++) {
    starts[d] = total;
    total += (title ? titleLength[d]! : titleLength[d]! + 1 + abstractLength[d]!) + 1;
  }
  starts[n] = total;
  byField[field] = starts;
  return starts;
}
