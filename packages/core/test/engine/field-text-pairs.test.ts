import { describe, expect, it } from 'vitest';
import { FieldTextBuilder, MAX_PAIRS_KEPT, PAIR_KEPT_SHARE, PAIR_SETS, pairSet } from '../../src/engine/substring/field-text.js';
import { setToList } from '../../src/engine/doc-set.js';

/** The field's index of `texts`, documents in input order. */
function fieldText(texts: readonly string[]) {
  const builder = new FieldTextBuilder('all');
  for (const text of texts) builder.add(text, !/[^\x00-\x7f]/.test(text));
  return builder.finish(Uint32Array.from(texts.keys()));
}

const code = (pair: string) => pairSet(pair.charCodeAt(0), pair.charCodeAt(1));

describe('the fields\u2019 pair sets', () => {
  it.each([
    ['in', ['Inside', 'rain', 'i n', 'I-N', 'İN', 'xin1', 'ın', 'IN\u212a'], [0, 1, 5, 7]],
    ['kn', ['\u212aNOW', 'know', 'k n'], null], // not a candidate pair
    ['ti', ['TI', 'aTiON', 't i', 'tİ', 'ıt'], [0, 1, 3]], // `tİ` lower-cases to `ti` and a dot
    ['er', ['ER', 'E R', 'éR', 'ER\u0301'], [0, 3]],
  ])('%j: exactly the texts whose lower case holds it', (pair, texts, want) => {
    const set = code(pair);
    if (want === null) {
      expect(set).toBe(-1);
      return;
    }
    const text = fieldText(texts);
    expect(text.pairKept[set]).toBe(1);
    expect([...setToList(text.pairs.set(set))]).toEqual(want);
    expect(want).toEqual(texts.flatMap((t, d) => (t.toLowerCase().includes(pair) ? [d] : [])));
  });

  it('keeps the pairs of more than one document in eight, the commonest first, at most 32', () => {
    const candidates = Array.from({ length: 36 * 36 }, (_, i) => i)
      .map((i) => String.fromCharCode(...[Math.floor(i / 36), i % 36].map((c) => (c < 26 ? 97 + c : 48 + c - 26))))
      .filter((pair) => code(pair) >= 0);
    expect(candidates).toHaveLength(PAIR_SETS);
    // Pair p (p < 40) in 40 - p of 80 documents: 10 documents (one in eight) is not enough.
    const texts = Array.from({ length: 80 }, (_, d) => candidates.filter((_, p) => p < 40 && d < 40 - p).join(' '));
    const text = fieldText(texts);
    const kept = candidates.filter((pair) => text.pairKept[code(pair)] === 1);
    expect(PAIR_KEPT_SHARE * 80).toBe(10);
    expect(kept).toEqual(candidates.slice(0, Math.min(MAX_PAIRS_KEPT, 30)));
    for (const pair of candidates) {
      const docs = [...setToList(text.pairs.set(code(pair)))];
      expect(docs, pair).toEqual(kept.includes(pair) ? texts.flatMap((t, d) => (t.includes(pair) ? [d] : [])) : []);
    }
  });
});
