import type { TermOccurrences } from '../search/term-occurrences.js';

/**
 * A term's six occurrence counts in one document, packed in one 32-bit number so that a
 * document-indexed scratch array of them stays small (cache-friendly): title whole and prefix
 * (4 bits each), authors whole and prefix (4 bits each), abstract whole and prefix (7 bits
 * each), and an overflow bit set when a count would not fit (the caller then counts that
 * document exactly another way).
 */
export const OVERFLOW = 1 << 30;

// Field slots: 0 title whole, 1 title prefix, 2 abstract whole, 3 abstract prefix, 4 authors whole, 5 authors prefix.
const SHIFT = [0, 4, 16, 23, 8, 12] as const;
const MAX = [15, 15, 127, 127, 15, 15] as const;
const SHIFTS = Uint8Array.from(SHIFT);
const MAXES = Uint8Array.from(MAX);

/** `packed` with one more occurrence in field slot `slot` (see above), or with OVERFLOW set. */
export function addOccurrence(packed: number, slot: number): number {
  const shift = SHIFTS[slot]!;
  return ((packed >>> shift) & MAXES[slot]!) === MAXES[slot] ? packed | OVERFLOW : packed + (1 << shift);
}

/** Whether the packed counts have a title or authors occurrence. */
export function hasHead(packed: number): boolean {
  return (packed & 0xffff) !== 0;
}

/** Writes packed counts into an occurrences object. */
export function unpack(packed: number, found: TermOccurrences): void {
  found.title.whole = packed & 15;
  found.title.prefix = (packed >>> 4) & 15;
  found.authors.whole = (packed >>> 8) & 15;
  found.authors.prefix = (packed >>> 12) & 15;
  found.abstract.whole = (packed >>> 16) & 127;
  found.abstract.prefix = (packed >>> 23) & 127;
}
