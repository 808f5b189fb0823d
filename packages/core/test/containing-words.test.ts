import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { containingWords } from '../src/engine/substring/word-sets.js';
import { Vocabulary } from '../src/engine/vocabulary.js';

/** A vocabulary of `words` in the order given (word numbers are positions), as the index lays it out. */
function vocabularyOf(words: readonly string[]): Vocabulary {
  const starts = new Uint32Array(words.length + 1);
  const text = words.join('');
  for (let w = 0, at = 0; w < words.length; w++) {
    starts[w] = at;
    at += words[w]!.length;
    starts[w + 1] = at;
  }
  const chars = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) chars[i] = text.charCodeAt(i);
  return new Vocabulary(chars, starts);
}

const expected = (words: readonly string[], part: string) => (part === '' ? [] : words.flatMap((word, w) => (word.includes(part) ? [w] : [])));

describe.each([
  ['with Node’s Buffer', false],
  ['without Buffer (the loop)', true],
])('containingWords %s', (_name, hideBuffer) => {
  afterEach(() => vi.unstubAllGlobals());
  const run = (words: readonly string[], part: string) => {
    const vocabulary = vocabularyOf(words);
    if (hideBuffer) vi.stubGlobal('Buffer', undefined);
    try {
      return Array.from(containingWords(vocabulary, part));
    } finally {
      vi.unstubAllGlobals();
    }
  };

  it.each([
    [['graph', 'paragraph', 'raph', 'zeta'], 'raph', [0, 1, 2]],
    // Words lie end to end: `ab` + `cd` holds `bc` only across the boundary.
    [['ab', 'cd', 'bcx'], 'bc', [2]],
    [['aa', 'aaa', 'a'], 'aa', [0, 1]],
    [['résumé', 'resume', 'é'], 'é', [0, 2]],
    [['x\u{1F600}y', 'y'], '\u{1F600}', [0]],
    // A code unit whose bytes, shifted by one, would spell the part (U+6100 U+6200: 00 61 00 62).
    [['\u6100\u6200'], 'ab', []],
    // A word holding the part after a word that ends with its start, and a part that starts in one word and ends in the next.
    [['xq', 'equat', 'quat', 'ze', 'quatre'], 'equat', [1]],
    [['zeq', 'uat', 'sequatur'], 'equat', [2]],
    [['abc'], '', []],
    [[], 'a', []],
  ])('%j holding %j: %j', (words, part, want) => {
    expect(run(words, part)).toEqual(want);
  });

  it('finds what a filter over every word finds', () => {
    const word = fc.stringMatching(/^[abé\u6100\u{1F600}]{1,5}$/u);
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), fc.stringMatching(/^[abé\u{1F600}]{1,3}$/u), (words, part) => {
        expect(run(words, part)).toEqual(expected(words, part));
      }),
    );
  });
});
