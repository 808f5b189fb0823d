import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DictionaryWords } from '../src/dictionary-words.js';
import { RecheckTexts } from '../src/recheck-texts.js';

describe('DictionaryWords.containing', () => {
  const dictionary = DictionaryWords.of(['graph', 'paragraph', 'aa', 'aaa', 'zeta', 'résumé'], Int32Array.from([3, 7, 8, 9, 12, 20]), Int32Array.from([5, 1, 2, 4, 6, 1]));
  it.each([
    ['graph', [3, 7], 6],
    ['para', [7], 1],
    // Each word once however often the needle is in it; never across two words.
    ['a', [3, 7, 8, 9, 12], 18],
    ['aa', [8, 9], 6],
    ['hpar', [], 0],
    ['aaz', [], 0],
    ['sum', [20], 1],
    ['zeta', [12], 6],
    ['', [], 0],
  ])('%j: ids %j, %i entries', (needle, ids, entries) => {
    expect(dictionary.containing(needle)).toEqual({ ids, entries });
  });

  it('finds what a filter over every word finds', () => {
    const word = fc.stringMatching(/^[a-c0-1é]{1,6}$/);
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 40 }), fc.stringMatching(/^[a-c0-1é]{1,3}$/), (words, needle) => {
        const ids = Int32Array.from(words, (_, i) => 10 + 2 * i);
        const dfs = Int32Array.from(words, (_, i) => 1 + (i % 5));
        const want = words.flatMap((w, i) => (w.includes(needle) ? [i] : []));
        expect(DictionaryWords.of(words, ids, dfs).containing(needle)).toEqual({ ids: want.map((i) => ids[i]!), entries: want.reduce((sum, i) => sum + dfs[i]!, 0) });
      }),
    );
  });

  it('reads the words from one text of lines as from a list, and refuses lines that do not match the ids', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-c0-1é]{1,6}$/), { maxLength: 30 }), fc.stringMatching(/^[a-c0-1é]{1,3}$/), (words, needle) => {
        const ids = Int32Array.from(words, (_, i) => 5 + i);
        const dfs = Int32Array.from(words, (_, i) => 1 + (i % 3));
        const fromLines = DictionaryWords.fromLines(words.map((word) => `${word}\n`).join(''), ids, dfs);
        expect(fromLines?.containing(needle)).toEqual(DictionaryWords.of(words, ids, dfs).containing(needle));
      }),
    );
    expect(DictionaryWords.fromLines('ab\ncd\n', Int32Array.of(1), Int32Array.of(1))).toBeNull();
    expect(DictionaryWords.fromLines('ab\n', Int32Array.of(1, 2), Int32Array.of(1, 1))).toBeNull();
    expect(DictionaryWords.fromLines('ab', Int32Array.of(1), Int32Array.of(1))).toBeNull();
  });

  it('refuses a word list that does not match its ids', () => {
    expect(() => DictionaryWords.of(['a'], new Int32Array(2), new Int32Array(2))).toThrow(/one id/);
  });
});

describe('RecheckTexts.containing', () => {
  it.each([
    ['net', [4, 9]],
    ['ré', [2]],
    // Not across two papers' texts.
    ['ab', [2]],
    ['bb', []],
    ['x', []],
  ])('%j: %j', (needle, ords) => {
    expect(RecheckTexts.of(Int32Array.from([2, 4, 9, 11]), ['ab réseau', 'neural net', 'net\nnet', 'b']).containing(needle)).toEqual(ords);
  });

  it('finds what a filter over every text finds', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[ab é\n1]{0,12}$/), { maxLength: 30 }), fc.stringMatching(/^[ab1]{1,3}$/), (texts, needle) => {
        const ords = Int32Array.from(texts, (_, i) => 3 * i + 1);
        const want = texts.flatMap((text, i) => (text.includes(needle) ? [ords[i]!] : []));
        expect(RecheckTexts.of(ords, texts).containing(needle)).toEqual(want);
      }),
    );
  });
});
