import { uint32Array } from './alloc.js';
import { bitsetWords, popcount32 } from './bits.js';
import { bitsSet, EMPTY_SET, listSet, sortUnique, type DocSet } from './doc-set.js';
import type { DocSetTable } from './doc-set-table.js';
import { spend } from './work-budget.js';

/**
 * The union of some sets of a table: a sorted list when the sets hold few documents in all
 * (concatenated, sorted), else a bitset (each set or'ed in). The work is the sets' sizes, never
 * the catalogue's (a bitset costs one pass over its words).
 */
export function unionOfTableSets(table: DocSetTable, ids: ArrayLike<number>, n: number): DocSet {
  if (ids.length === 0) return EMPTY_SET;
  if (ids.length === 1) return table.set(ids[0]!);
  let total = 0;
  for (let i = 0; i < ids.length; i++) total += table.df[ids[i]!]!;
  if (total === 0) return EMPTY_SET;
  if (total * 32 <= n) {
    spend(total * 2);
    const docs = uint32Array(total);
    let at = 0;
    for (let i = 0; i < ids.length; i++) {
      const set = table.set(ids[i]!);
      if (set.kind !== 'list') throw new Error('paperlist: a set of a few documents is a list');
      docs.set(set.docs, at);
      at += set.docs.length;
    }
    return listSet(sortUnique(docs));
  }
  const words = bitsetWords(n);
  const bits = uint32Array(words);
  for (let i = 0; i < ids.length; i++) {
    const set = table.set(ids[i]!);
    if (set.kind === 'bits') {
      spend(words);
      const other = set.bits;
      for (let w = 0; w < words; w++) bits[w]! |= other[w]!;
    } else if (set.kind === 'list') {
      spend(set.docs.length);
      const docs = set.docs;
      for (let k = 0; k < docs.length; k++) bits[docs[k]! >>> 5]! |= 1 << (docs[k]! & 31);
    }
  }
  spend(words);
  let count = 0;
  for (let w = 0; w < words; w++) if (bits[w] !== 0) count += popcount32(bits[w]!);
  return bitsSet(bits, count);
}

/** The union of two sets (for `|` alternatives). */
export function unionSets(a: DocSet, b: DocSet, n: number): DocSet {
  if (a.kind === 'all' || b.kind === 'all') return { kind: 'all', size: n };
  const size = (s: DocSet) => (s.kind === 'list' ? s.docs.length : s.kind === 'bits' ? s.count : n);
  if (size(a) === 0) return b;
  if (size(b) === 0) return a;
  if ((size(a) + size(b)) * 32 <= n && a.kind === 'list' && b.kind === 'list') {
    spend((a.docs.length + b.docs.length) * 2);
    const docs = uint32Array(a.docs.length + b.docs.length);
    docs.set(a.docs);
    docs.set(b.docs, a.docs.length);
    return listSet(sortUnique(docs));
  }
  const words = bitsetWords(n);
  spend(words);
  const bits = uint32Array(words);
  for (const set of [a, b]) {
    if (set.kind === 'bits') for (let w = 0; w < words; w++) bits[w]! |= set.bits[w]!;
    else if (set.kind === 'list') for (let k = 0; k < set.docs.length; k++) bits[set.docs[k]! >>> 5]! |= 1 << (set.docs[k]! & 31);
  }
  let count = 0;
  for (let w = 0; w < words; w++) if (bits[w] !== 0) count += popcount32(bits[w]!);
  return bitsSet(bits, count);
}
