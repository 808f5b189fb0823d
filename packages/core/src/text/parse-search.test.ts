import { describe, expect, it } from 'vitest';
import { foldText } from './fold-text.js';
import { parseSearch } from './parse-search.js';
import { textWords } from './words.js';

describe('foldText', () => {
  it.each([
    ['Attention', 'attention'],
    ['Schrödinger', 'schrodinger'],
    ['naïve café', 'naive cafe'],
    ['Łódź', 'łodz'],
    ['ﬁne', 'fine'],
    ['Straße', 'straße'],
    ['İstanbul', 'istanbul'],
  ])('%s -> %s', (input, folded) => {
    expect(foldText(input)).toBe(folded);
  });
});

describe('textWords', () => {
  it.each([
    ['GPT-4: Naïve_Bayes', ['gpt', '4', 'naive', 'bayes']],
    ['gpt4', ['gpt4']],
    ['The $\\alpha$-Model {x}', ['the', 'alpha', 'model', 'x']],
    ['1706.03762', ['1706', '03762']],
    ['  ', []],
    ['日本語 テキスト', ['日本語', 'テキスト']],
  ])('%j', (input, words) => {
    expect(textWords(input)).toEqual(words);
  });
});

describe('parseSearch', () => {
  const termsOf = (q: string) => {
    const parsed = parseSearch(q);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.terms.map((t) => ({ words: t.words, arxivId: t.arxivId }));
  };
  it.each<[string, { words: string[]; arxivId: string | null }[]]>([
    ['transform', [{ words: ['transform'], arxivId: null }]],
    ['deep learning', [{ words: ['deep'], arxivId: null }, { words: ['learning'], arxivId: null }]],
    ['deep,learning', [{ words: ['deep'], arxivId: null }, { words: ['learning'], arxivId: null }]],
    ['"attention is all" you', [{ words: ['attention', 'is', 'all'], arxivId: null }, { words: ['you'], arxivId: null }]],
    ['"unclosed phrase', [{ words: ['unclosed', 'phrase'], arxivId: null }]],
    ['gpt-4', [{ words: ['gpt', '4'], arxivId: null }]],
    ['1706.03762', [{ words: ['1706', '03762'], arxivId: '1706.03762' }]],
    ['1706.03762v5', [{ words: ['1706', '03762v5'], arxivId: '1706.03762' }]],
    ['hep-th/9307096', [{ words: ['hep', 'th', '9307096'], arxivId: 'hep-th/9307096' }]],
    ['Schrödinger', [{ words: ['schrodinger'], arxivId: null }]],
    ['--- , ""', []],
    ['', []],
    ['a\tb\nc', [{ words: ['a'], arxivId: null }, { words: ['b'], arxivId: null }, { words: ['c'], arxivId: null }]],
  ])('%j', (q, terms) => {
    expect(termsOf(q)).toEqual(terms);
  });

  it('refuses more than 1,000 characters', () => {
    expect(parseSearch('a'.repeat(1000)).ok).toBe(true);
    expect(parseSearch('a'.repeat(1001))).toEqual({ ok: false, error: 'too-long' });
  });

  it('refuses more than 32 terms', () => {
    expect(parseSearch(Array.from({ length: 32 }, (_, i) => `t${i}`).join(' ')).ok).toBe(true);
    expect(parseSearch(Array.from({ length: 33 }, (_, i) => `t${i}`).join(' '))).toEqual({
      ok: false,
      error: 'too-many-terms',
    });
  });
});
