import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePostings, encodeEntry, MAX_ENTRY_BYTES } from '../src/posting-codec.js';
import { decodeAndMerge, mergeInThread, type Counts, type RawPostingList, type TermPostings } from '../src/posting-merge.js';

/** One word's list from its (ordinal, title, abstract, authors) entries, ordinals ascending and distinct. */
function encode(word: string, entries: readonly (readonly [number, number, number, number])[]): RawPostingList {
  const data = new Uint8Array(Math.max(1, entries.length) * MAX_ENTRY_BYTES);
  let at = 0;
  let previous = 0;
  for (const [ord, title, abstract, authors] of entries) {
    at = encodeEntry(data, at, ord - previous, title, abstract, authors);
    previous = ord;
  }
  return { word, df: entries.length, data: data.slice(0, at) };
}

/** The merge as its definition says: per paper, the counts summed over the words, and the term's own word's apart. */
function reference(lists: readonly RawPostingList[], prefix: string | null): Omit<TermPostings, 'bytes'> {
  const sums = new Map<number, number[]>();
  const whole = lists.some((list) => list.word === prefix);
  for (const { word, df, data } of lists) {
    const { ords, title, abstract, authors } = decodePostings(data, df);
    ords.forEach((ord, i) => {
      const row = sums.get(ord) ?? [0, 0, 0, 0, 0, 0];
      row[0]! += title[i]!;
      row[1]! += abstract[i]!;
      row[2]! += authors[i]!;
      if (word === prefix) [row[3], row[4], row[5]] = [title[i]!, abstract[i]!, authors[i]!];
      sums.set(ord, row);
    });
  }
  const ords = [...sums.keys()].sort((a, b) => a - b);
  const column = (k: number) => Int32Array.from(ords, (ord) => sums.get(ord)![k]!);
  return {
    ords: Int32Array.from(ords),
    titleAll: column(0),
    abstractAll: column(1),
    authorsAll: column(2),
    titleWhole: whole ? column(3) : null,
    abstractWhole: whole ? column(4) : null,
    authorsWhole: whole ? column(5) : null,
  };
}

/** Whether two merges are equal, array by array (faster than a deep equality of half-million-entry arrays). */
function sameMerge(x: TermPostings, y: TermPostings): boolean {
  const bytes = (a: Counts | null) => (a === null ? null : Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  const keys = ['ords', 'titleAll', 'abstractAll', 'authorsAll', 'titleWhole', 'abstractWhole', 'authorsWhole'] as const;
  return keys.every((key) => {
    const [a, b] = [bytes(x[key]), bytes(y[key])];
    return a === null || b === null ? a === b : a.equals(b);
  });
}

/** A merge's arrays as plain numbers (the counts come in the narrowest array type that holds them), without its byte count. */
const without = (merge: TermPostings | Omit<TermPostings, 'bytes'>) => {
  const { bytes, ...rest } = merge as TermPostings;
  void bytes;
  return Object.fromEntries(Object.entries(rest).map(([key, array]) => [key, array === null ? null : Array.from(array as Counts)]));
};

// Counts mostly small (packed in one byte), sometimes large (escaped); ordinals sparse or dense, up to past 2^16.
const count = fc.oneof({ weight: 9, arbitrary: fc.nat(3) }, { weight: 1, arbitrary: fc.nat(100_000) });
const list = (word: fc.Arbitrary<string>, maxOrd: number) =>
  fc.tuple(word, fc.uniqueArray(fc.tuple(fc.nat(maxOrd), count, count, count), { selector: (e) => e[0], maxLength: 60 })).map(([w, entries]) =>
    encode(w, [...entries].sort((a, b) => a[0] - b[0])),
  );
const words = fc.constantFrom('ab', 'abc', 'abd', 'abz', 'abcd');
// A term's words are distinct dictionary entries.
const lists = fc.oneof(fc.uniqueArray(list(words, 300), { selector: (l) => l.word, maxLength: 5 }), fc.uniqueArray(list(words, 200_000), { selector: (l) => l.word, maxLength: 5 }));

describe('merging a term\'s posting lists', () => {
  it('equals the per-paper sums, on this thread and at once, for any lists', async () => {
    await fc.assert(
      fc.asyncProperty(lists, fc.constantFrom('ab', 'abc', null), async (raw, prefix) => {
        const want = reference(raw, prefix);
        expect(without(await mergeInThread(raw, prefix))).toEqual(without(want));
        expect(without(decodeAndMerge(raw, prefix))).toEqual(without(want));
      }),
      { numRuns: 400, seed: 1811 },
    );
  });

  it('gives merges that overlap (the event loop yields inside one) the answers they give alone, and rejects a broken list', async () => {
    // Lists large enough that the in-thread merge yields between them (every 500,000 entries).
    const big = (word: string, length: number, step: number, from: number) => encode(word, Array.from({ length }, (_, i) => [from + i * step, 1 + (i % 3), i % 5, 0] as const));
    const first = [big('ab', 260_000, 2, 0), big('abc', 260_000, 3, 1), big('abd', 1_000, 7, 5)];
    const second = [big('xy', 1_000, 5, 3), big('xyz', 2_000, 2, 7)];
    // Each alone (the property above checks a merge alone), then both at once: the second runs while the first waits for its turn.
    const [a, b] = [await mergeInThread(first, 'ab'), await mergeInThread(second, 'xy')];
    const [c, d] = await Promise.all([mergeInThread(first, 'ab'), mergeInThread(second, 'xy')]);
    expect(sameMerge(c, a)).toBe(true);
    expect(sameMerge(d, b)).toBe(true);
    expect(without(d)).toEqual(without(reference(second, 'xy')));

    const broken = { ...encode('ab', [[3, 1, 1, 1], [9, 2, 0, 0]]), df: 1 }; // a byte left over
    await expect(mergeInThread([encode('abc', [[4, 1, 0, 0]]), broken], 'ab')).rejects.toThrow(/left over/);
    const after = [encode('abc', [[4, 0, 1, 0]])];
    expect(without(await mergeInThread(after, 'ab'))).toEqual(without(reference(after, 'ab')));
  });

  it('keeps counts in the narrowest array that holds them, and counts that memory', async () => {
    const small = [encode('ab', [[1, 1, 3, 0], [5, 2, 0, 1]]), encode('abc', [[5, 1, 1, 1]])];
    const merged = await mergeInThread(small, 'ab');
    expect(merged.titleAll).toBeInstanceOf(Uint8Array);
    expect(merged.titleWhole).toBeInstanceOf(Uint8Array);
    expect(merged.bytes).toBe(2 * 4 + 6 * 2);
    const large = [encode('ab', [[1, 1, 70_000, 300]])];
    const one = await mergeInThread(large, 'ab');
    expect([one.abstractAll, one.authorsAll, one.titleAll].map((a) => a.constructor)).toEqual([Int32Array, Uint16Array, Uint8Array]);
    // One word, the term itself: its counts are both the "all" and the "whole" ones, held once.
    expect(one.abstractWhole).toBe(one.abstractAll);
    expect(one.bytes).toBe(4 + 4 + 2 + 1);
  });
});
