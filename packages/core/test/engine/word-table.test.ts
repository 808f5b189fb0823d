import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPACE_AFTER_FLAG, SPACE_BEFORE_FLAG, WordTable } from '../../src/engine/word-table.js';
import { loadSamplePapers } from '../../src/sample.js';
import { textWords } from '../../src/text/words.js';

function words(table: WordTable, text: string): string[] {
  const out = new Uint32Array(text.length + 1);
  const end = table.tokenize(text, out, 0, new Uint8Array(text.length + 1));
  const all = table.words();
  return Array.from(out.subarray(0, end), (id) => all[id]!);
}

describe('WordTable', () => {
  it('splits and folds exactly like textWords on the sample', async () => {
    const table = new WordTable();
    const texts = (await loadSamplePapers()).flatMap((paper) => [paper.title, paper.abstract, ...paper.authors]);
    const numbers = texts.map((text) => {
      const out = new Uint32Array(text.length + 1);
      return Array.from(out.subarray(0, table.tokenize(text, out, 0, new Uint8Array(text.length + 1))));
    });
    const all = table.words();
    texts.forEach((text, i) => expect(numbers[i]!.map((id) => all[id])).toEqual(textWords(text)));
  });

  it('splits and folds exactly like textWords on random text', () => {
    const alphabet = ['a', 'Z', 'q', '0', '9', ' ', '-', '_', '.', '$', '\\', '{', 'é', 'É', 'ü', 'ł', 'ß', 'ﬁ', 'İ', '\u212a', '\u0301', '日', '😀', '²', 'ǅ', '\u00a0', '\t', '"'];
    const table = new WordTable();
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), fc.string({ maxLength: 20 }), (chars, extra) => {
        const text = chars.join('') + extra;
        expect(words(table, text)).toEqual(textWords(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('flags, for ASCII text, the words whose separator before or after is exactly one space', () => {
    const table = new WordTable();
    const expected = (text: string): number[] => {
      const spans = [...text.matchAll(/[A-Za-z0-9]+/g)].map((m) => [m.index, m.index + m[0].length] as const);
      return spans.map(([start, end], i) => {
        const before = text.slice(i === 0 ? 0 : spans[i - 1]![1], start);
        const after = text.slice(end, i + 1 < spans.length ? spans[i + 1]![0] : text.length);
        return (before === ' ' ? SPACE_BEFORE_FLAG : 0) | (after === ' ' ? SPACE_AFTER_FLAG : 0);
      });
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'B', '7', ' ', '  ', ',', '.', '-', '\n', '\t', '(', '$'), { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        const out = new Uint32Array(text.length + 1);
        const flags = new Uint8Array(text.length + 1);
        const end = table.tokenize(text, out, 0, flags);
        expect(table.ascii).toBe(true);
        expect(Array.from(flags.subarray(0, end))).toEqual(expected(text));
      }),
      { numRuns: 2000 },
    );
    const flags = new Uint8Array(8).fill(255);
    const end = table.tokenize('naïve bayes', new Uint32Array(16), 0, flags);
    expect(table.ascii).toBe(false);
    expect(Array.from(flags.subarray(0, end))).toEqual([0, 0]);
  });

  it('numbers each distinct word once, in order of first appearance', () => {
    const table = new WordTable();
    const out = new Uint32Array(64);
    const end = table.tokenize('Beta alpha BETA gamma café Café', out, 0, new Uint8Array(64));
    expect(Array.from(out.subarray(0, end))).toEqual([0, 1, 0, 2, 3, 3]);
    expect(table.words()).toEqual(['beta', 'alpha', 'gamma', 'cafe']);
    for (let i = 0; i < 5000; i++) table.wordNumber(`w${i}`); // forces the table to grow
    expect(table.wordNumber('w4999')).toBe(4 + 4999);
    expect(table.wordNumber('alpha')).toBe(1);
  });
});

describe('titleKey', () => {
  it('equals titleSortKey', async () => {
    const { titleKey } = await import('../../src/engine/title-key.js');
    const { titleSortKey } = await import('../../src/ordering/title-sort-key.js');
    for (const paper of await loadSamplePapers()) expect(titleKey(paper.title)).toBe(titleSortKey(paper.title));
    for (const title of ['', '---', 'A-B', 'The $\\alpha$-Model {x}', 'Schrödinger', 'x'.repeat(10000)]) expect(titleKey(title)).toBe(titleSortKey(title));
  });
});
