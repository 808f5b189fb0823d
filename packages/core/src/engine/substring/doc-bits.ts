import { uint32Array } from '../alloc.js';
import { countBits } from '../bits.js';
import { bitsSet, EMPTY_SET, listSet, type DocSet } from '../doc-set.js';

/** Adds the documents of `set` to `bits`. */
export function orInto(bits: Uint32Array, set: DocSet): void {
  if (set.kind === 'bits') for (let i = 0; i < bits.length; i++) bits[i]! |= set.bits[i]!;
  else if (set.kind === 'list') for (let i = 0; i < set.docs.length; i++) bits[set.docs[i]! >>> 5]! |= 1 << (set.docs[i]! & 31);
}

/** The union of two ascending lists, as a list set. */
export function union(a: Uint32Array, b: Uint32Array): DocSet {
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

/** `bits` as a set: the empty set when no bit is set. */
export function bitsToSet(bits: Uint32Array): DocSet {
  const count = countBits(bits);
  return count === 0 ? EMPTY_SET : bitsSet(bits, count);
}
