import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortByCodes } from '../../src/engine/code-sort.js';
import { suffixOrder } from '../../src/engine/suffix-order.js';
import { Vocabulary } from '../../src/engine/vocabulary.js';
import { WordTable } from '../../src/engine/word-table.js';
import { loadSamplePapers } from '../../src/sample.js';

/** Words as a pool of codes, in the given order (as a `WordTable` keeps them). */
function pool(words: readonly string[]): { chars: Uint16Array; spans: Uint32Array } {
  const chars = new Uint16Array(words.reduce((sum, w) => sum + w.length, 0));
  const spans = new Uint32Array(2 * words.length);
  let at = 0;
  words.forEach((word, w) => {
    spans[2 * w] = at;
    spans[2 * w + 1] = word.length;
    for (let i = 0; i < word.length; i++) chars[at++] = word.charCodeAt(i);
  });
  return { chars, spans };
}

const reverse = (word: string) => [...word].reverse().join('');
// Code unit order, as `<` compares strings (so not by code point: a surrogate sorts below U+E000).
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const reversedUnits = (word: string) => word.split('').reverse().join('');

function sorted(words: readonly string[], backwards: boolean): string[] {
  const { chars, spans } = pool(words);
  const ids = Uint32Array.from(words, (_, i) => i);
  sortByCodes(ids, chars, spans, backwards);
  return Array.from(ids, (i) => words[i]!);
}

describe('sortByCodes', () => {
  it.each([
    { words: [], forwards: [], backwards: [] },
    { words: ['b'], forwards: ['b'], backwards: ['b'] },
    { words: ['ab', 'a', '', 'abc', 'b'], forwards: ['', 'a', 'ab', 'abc', 'b'], backwards: ['', 'a', 'b', 'ab', 'abc'] },
    { words: ['zeta', 'alpha', 'beta', 'eta'], forwards: ['alpha', 'beta', 'eta', 'zeta'], backwards: ['alpha', 'eta', 'beta', 'zeta'] },
    { words: ['\uffff', '\ud83d\ude00', 'é', 'e'], forwards: ['e', 'é', '\ud83d\ude00', '\uffff'], backwards: ['e', 'é', '\ud83d\ude00', '\uffff'] },
  ])('sorts $words', ({ words, forwards, backwards }) => {
    expect(sorted(words, false)).toEqual(forwards);
    expect(sorted(words, true)).toEqual(backwards);
  });

  it('sorts as JavaScript compares strings, forwards and backwards, on random words', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '\ud83d', '\ude00', '\uffff', '0'), maxLength: 8 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 200 }), (words) => {
        expect(sorted(words, false)).toEqual(words.slice().sort(byCodeUnits));
        const back = words.slice().sort((a, b) => byCodeUnits(reversedUnits(a), reversedUnits(b)));
        expect(sorted(words, true)).toEqual(back);
      }),
      { numRuns: 300 },
    );
  });

  it('sorts long shared prefixes and many equal-length words (the partitions go deep)', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `${'x'.repeat(200)}${(i * 7919) % 3001}`);
    expect(sorted(words, false)).toEqual(words.slice().sort(byCodeUnits));
  });
});

describe('Vocabulary.sort and suffixOrder', () => {
  it('make the sorted vocabulary, its renumbering and its suffix order of a table of the sample', async () => {
    const table = new WordTable();
    for (const paper of await loadSamplePapers()) {
      const text = `${paper.title} ${paper.abstract}`;
      table.tokenize(text, new Uint32Array(text.length + 1), 0, new Uint8Array(text.length + 1));
    }
    const words = table.words();
    const { vocabulary, renumber } = Vocabulary.sort(table.codes());
    const expected = words.slice().sort(byCodeUnits);
    expect(Array.from({ length: vocabulary.size }, (_, w) => vocabulary.word(w))).toEqual(expected);
    words.forEach((word, id) => expect(vocabulary.word(renumber[id]!)).toBe(word));
    const bySuffix = Array.from(suffixOrder(vocabulary), (w) => reverse(vocabulary.word(w)));
    expect(bySuffix).toEqual(expected.map(reverse).sort(byCodeUnits));
  });
});
