import { uint32Array } from './alloc.js';
/**
 * Bitsets over document numbers: `Uint32Array`s where bit `d & 31` of word `d >>> 5` is
 * document `d`. Small, allocation-free helpers used by every part of the engine.
 */

/** Words of a bitset holding `n` documents. */
export function bitsetWords(n: number): number {
  return (n + 31) >>> 5;
}

/** Number of set bits of a 32-bit word. */
export function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Whether document `d` is in the bitset. */
export function hasBit(bits: Uint32Array, d: number): boolean {
  return (bits[d >>> 5]! & (1 << (d & 31))) !== 0;
}

/** Number of set bits in `bits[from..to)`. */
export function countBits(bits: Uint32Array, from = 0, to = bits.length): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const v = bits[i]!;
    if (v !== 0) count += popcount32(v);
  }
  return count;
}

/** The set documents of `bits[from..to)` in ascending order (`count` of them, if known). */
export function bitsToList(bits: Uint32Array, count: number, from = 0, to = bits.length): Uint32Array {
  const out = uint32Array(count);
  let k = 0;
  for (let i = from; i < to && k < count; i++) {
    let v = bits[i]!;
    const base = (i - from) << 5;
    while (v !== 0) {
      const t = v & -v;
      out[k++] = base + 31 - Math.clz32(t);
      v ^= t;
    }
  }
  return k === count ? out : out.subarray(0, k);
}

/**
 * The `skip`-th to `skip + take - 1`-th set documents of a bitset (0-based, ascending):
 * whole words are skipped by their population count.
 */
export function selectBits(bits: Uint32Array, skip: number, take: number): Uint32Array {
  const out: number[] = [];
  let seen = 0;
  for (let i = 0; i < bits.length && out.length < take; i++) {
    let v = bits[i]!;
    if (v === 0) continue;
    if (seen + 32 <= skip || seen + popcount32(v) <= skip) {
      seen += popcount32(v);
      continue;
    }
    while (v !== 0 && out.length < take) {
      const t = v & -v;
      if (seen >= skip) out.push((i << 5) + 31 - Math.clz32(t));
      seen++;
      v ^= t;
    }
  }
  return Uint32Array.from(out);
}
