import { describe, expect, it } from 'vitest';
import { textWords, type SearchTerm } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { makePaper } from '../../core/test/make-paper.js';
import { PaperEncoder } from '../src/copy-format.js';
import { deriveColumns, fieldText, foldedWords, prefixRange, termPattern } from '../src/text-columns.js';
import { WordDictionary } from '../src/word-dictionary.js';

const term = (...words: string[]): SearchTerm => ({ raw: words.join(' '), words, arxivId: null });

describe('stored text', () => {
  it('foldedWords is textWords, ASCII fast path included', async () => {
    const texts = ['GPT-4: Naïve_Bayes', 'A  (b)--c', '', '---', 'x', 'Schrödinger', 'İstanbul ǅ ﬁne', '日本語 テキスト', 'ab12 CD34'];
    const papers = await loadSamplePapers();
    for (const paper of papers.slice(0, 500)) texts.push(paper.title, paper.abstract, ...paper.authors);
    for (const text of texts) expect(foldedWords(text), text).toEqual(textWords(text));
  });

  it('writes each word between two spaces and joins author names with |', () => {
    expect(fieldText(['attention', 'is', 'all'])).toBe(' attention  is  all ');
    expect(fieldText([])).toBe('');
    const derived = deriveColumns(makePaper({ id: 'x', title: 'GPT-4: a Report', authors: ['Noam Shazeer', '---', 'Łukasz Kaiser'] }));
    expect(derived.titleText).toBe(' gpt  4  a  report ');
    expect(derived.authorsText).toBe(' noam  shazeer || łukasz  kaiser ');
    expect([derived.titleLength, derived.authorsLength]).toEqual([4, 4]);
  });

  it('the encoder derives what deriveColumns does, from ASCII text without a string per word, word ids distinct and ascending', async () => {
    const encoder = new PaperEncoder(new WordDictionary());
    const papers = await loadSamplePapers();
    for (const paper of papers.slice(0, 300)) {
      const values = encoder.values(paper);
      const derived = deriveColumns(paper);
      expect(values.slice(13, 22)).toEqual([
        derived.titleKey,
        derived.titleLower,
        derived.abstractLower,
        derived.titleText,
        derived.authorsText,
        derived.abstractText,
        String(derived.titleLength),
        String(derived.authorsLength),
        String(derived.abstractLength),
      ]);
      const ids = values[22]!.slice(1, -1).split(',').filter(Boolean).map(Number);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(new Set(derived.words.flat()).size);
      // Ascending: the server's sort of each indexed array then finds it in order.
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    const added = [...encoder.dictionary.added()];
    expect(added.slice(0, 3).map(([id]) => id)).toEqual([1, 2, 3]);
    expect(new Set(added.map(([, word]) => word)).size).toBe(added.length);
  });

  it('a dictionary loaded from the database keeps its ids and numbers new words after them', () => {
    const dictionary = new WordDictionary([
      ['attention', 7],
      ['model', 3],
    ]);
    expect(dictionary.idOf('model')).toBe(3);
    expect(dictionary.idOf('transformer')).toBe(8);
    expect([...dictionary.added()]).toEqual([[8, 'transformer']]);
  });
});

describe('term patterns', () => {
  it.each<[string[], string, boolean, boolean]>([
    [['transform'], ' transform', false, false],
    [['attention', 'is', 'all'], ' attention  is  all', false, true],
    [['a', 'a'], ' a  a', true, true],
    [['ab', 'a'], ' ab  a', true, true],
    [['a', 'b', 'a', 'c'], ' a  b  a  c', true, true],
    [['a', 'b', 'c'], ' a  b  c', false, true],
  ])('%j', (words, any, overlapping, needsRecheck) => {
    const pattern = termPattern(term(...words));
    expect(pattern).toEqual({ any, whole: `${any} `, overlapping, needsRecheck });
  });

  it('prefix ranges are half-open in code point order', () => {
    expect(prefixRange('abc')).toEqual({ lower: 'abc', upper: 'abd' });
    expect(prefixRange('a\u{10FFFF}')).toEqual({ lower: 'a\u{10FFFF}', upper: 'b' });
    expect(prefixRange('\u{D7FF}')).toEqual({ lower: '\u{D7FF}', upper: '\u{E000}' });
    expect(prefixRange('\u{10FFFF}')).toEqual({ lower: '\u{10FFFF}', upper: null });
  });
});
