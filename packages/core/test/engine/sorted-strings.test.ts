import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedStrings } from '../../src/engine/sorted-strings.js';

/*
 * Author names and filter values are kept as WTF-8 bytes but sorted and searched in UTF-16 code
 * unit order (the order `Array.prototype.sort` gives, which the build uses). The two orders
 * differ for astral characters against U+E000..U+FFFF, and a lone surrogate has no UTF-8 form:
 * both are in the alphabet below.
 */
const UNITS = ['a', 'B', ' ', 'é', 'ß', '中', '\u{1F600}', '\uE000', '\uFFFD', '\uD800', '\uDC00', '\uDBFF', '\u0000', '\u07FF', '\u0800'];
const text = fc.array(fc.constantFrom(...UNITS), { maxLength: 8 }).map((units) => units.join(''));

describe('SortedStrings', () => {
  it('gives back every string exactly and finds it at its place in the sort', () => {
    fc.assert(
      fc.property(fc.uniqueArray(text, { maxLength: 40 }), fc.array(text, { maxLength: 20 }), (strings, probes) => {
        const sorted = strings.slice().sort();
        const table = SortedStrings.fromSorted(sorted);
        expect(table.size).toBe(sorted.length);
        sorted.forEach((s, i) => {
          expect(table.get(i)).toBe(s);
          expect(table.find(s)).toBe(i);
        });
        for (const probe of probes) expect(table.find(probe)).toBe(sorted.indexOf(probe));
      }),
      { numRuns: 500 },
    );
  });

  it('stores one byte per ASCII character', () => {
    const table = SortedStrings.fromSorted(['Graham Neubig', 'Yann LeCun']);
    expect(table.bytes.length).toBe('Graham Neubig'.length + 'Yann LeCun'.length);
  });

  it('keeps the code unit order where it differs from the code point order', () => {
    // U+1F600 is D83D DE00 in UTF-16: before U+E000 by code unit, after it by code point.
    const sorted = ['\u{1F600}', '\uE000'];
    expect(sorted.slice().sort()).toEqual(sorted);
    const table = SortedStrings.fromSorted(sorted);
    expect(table.find('\uE000')).toBe(1);
    expect(table.find('\u{1F600}')).toBe(0);
    expect(table.find('\uD83D')).toBe(-1);
  });

  it('finds nothing in an empty table', () => {
    expect(SortedStrings.fromSorted([]).find('')).toBe(-1);
  });
});
