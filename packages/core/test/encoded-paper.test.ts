import { describe, expect, it } from 'vitest';
import { EncodedPaper } from '../src/encoded-paper.js';
import { serializePaper } from '../src/paper.js';
import { makePaper } from './make-paper.js';

describe('EncodedPaper', () => {
  it.each([
    ['plain', 'arxiv-1234.5678'],
    ['escaped', 'a "quoted" \\ id\n'],
    ['non-ASCII', 'naïve-bayes-çœ-日本'],
    ['lone surrogate', 'x\ud800y'],
    ['empty', ''],
  ])('reads a %s id from its JSON when none is given', (_, id) => {
    const json = new TextEncoder().encode(serializePaper(makePaper({ id })));
    const lazy = new EncodedPaper(undefined, json);
    expect(lazy.id).toBe(JSON.parse(new TextDecoder().decode(json)).id);
    expect(lazy.id).toBe(lazy.id);
    expect(new EncodedPaper('given', json).id).toBe('given');
    expect(EncodedPaper.fromPaper(makePaper({ id })).id).toBe(id);
  });
});
