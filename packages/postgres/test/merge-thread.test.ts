import { afterEach, describe, expect, it } from 'vitest';
import { encodeEntry, MAX_ENTRY_BYTES } from '../src/posting-codec.js';
import { mergeInThread, type RawPostingList } from '../src/posting-merge.js';
import { MergePool } from '../src/merge-thread/merge-pool.js';

/** A seeded generator, so that a failure names lists that fail again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A count: mostly packed in the entry's byte, sometimes escaped (large). */
function count(next: () => number, packedMax: number): number {
  const roll = next();
  if (roll < 0.05) return Math.floor(next() * 300);
  return Math.floor(next() * (packedMax + 1));
}

/** `words` encoded lists of papers among `papers` ordinals, each holding about `density` of them. */
function randomLists(next: () => number, words: string[], papers: number, density: number): RawPostingList[] {
  return words.map((word) => {
    const ords: number[] = [];
    for (let ord = 0; ord < papers; ord++) if (next() < density) ords.push(ord);
    const data = new Uint8Array(ords.length * MAX_ENTRY_BYTES);
    let at = 0;
    let previous = 0;
    for (const ord of ords) {
      at = encodeEntry(data, at, ord - previous, count(next, 3), count(next, 15), count(next, 3));
      previous = ord;
    }
    return { word, df: ords.length, data: data.slice(0, at) };
  });
}

let pool: MergePool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('merge threads', () => {
  // Sparse lists over many ordinals take the sorting merge, dense ones the gathering merge; one
  // word, none, the term itself among its words or not.
  const cases = [
    { name: 'no word', words: [], papers: 100, density: 0.1, prefix: 'ab' },
    { name: 'one word, the term itself', words: ['ab'], papers: 2000, density: 0.3, prefix: 'ab' },
    { name: 'one word, a longer one', words: ['abc'], papers: 2000, density: 0.3, prefix: 'ab' },
    { name: 'dense words with the term', words: ['ab', 'abc', 'abd', 'abz'], papers: 5000, density: 0.4, prefix: 'ab' },
    { name: 'dense words without the term', words: ['abc', 'abd'], papers: 5000, density: 0.6, prefix: 'ab' },
    { name: 'sparse words with the term', words: ['ab', 'abc', 'abd', 'abe', 'abf'], papers: 400_000, density: 0.001, prefix: 'ab' },
    { name: 'sparse words, a substring (no term)', words: ['xab', 'abx', 'yaby'], papers: 400_000, density: 0.002, prefix: null },
    { name: 'empty lists among others', words: ['ab', 'abc', 'abd'], papers: 3000, density: 0, prefix: 'ab' },
  ];
  for (const [index, { name, words, papers, density, prefix }] of cases.entries()) {
    it(`merge as the event loop does: ${name}`, async () => {
      pool = new MergePool(2);
      for (let seed = 1; seed <= 3; seed++) {
        const lists = randomLists(random(1000 * index + seed), words, papers, density);
        const [threaded, inThread] = await Promise.all([pool.merge(lists, prefix), mergeInThread(lists, prefix)]);
        expect(threaded).toEqual(inThread);
        // The rows handed over stay readable: the thread got a copy.
        expect(lists.every((list) => list.data.buffer.byteLength > 0 || list.df === 0)).toBe(true);
      }
    });
  }

  it('reject the jobs of a thread that dies, and answer the next on a new thread', async () => {
    pool = new MergePool(1);
    const lists = randomLists(random(7), ['ab', 'abc', 'abd'], 50_000, 0.5);
    await pool.merge(lists, 'ab');
    const [first] = pool.workers();
    const inFlight = expect(pool.merge(lists, 'ab')).rejects.toThrow(/merge thread/);
    await first!.terminate();
    await inFlight;
    const [threaded, inThread] = await Promise.all([pool.merge(lists, 'ab'), mergeInThread(lists, 'ab')]);
    expect(threaded).toEqual(inThread);
    expect(pool.workers()).toHaveLength(1);
    expect(pool.workers()[0]).not.toBe(first);
  });

  it('end on close: jobs in flight and later ones are rejected', async () => {
    pool = new MergePool(1);
    const lists = randomLists(random(9), ['ab', 'abc'], 50_000, 0.5);
    const inFlight = expect(pool.merge(lists, 'ab')).rejects.toThrow(/closed/);
    await pool.close();
    await inFlight;
    await expect(pool.merge(lists, 'ab')).rejects.toThrow(/closed/);
    expect(pool.workers()).toHaveLength(0);
  });

  it('reject a list that does not decode, and keep answering', async () => {
    pool = new MergePool(1);
    const lists = randomLists(random(11), ['ab'], 1000, 0.5);
    await expect(pool.merge([{ ...lists[0]!, df: lists[0]!.df - 1 }], 'ab')).rejects.toThrow(/left over/);
    expect(await pool.merge(lists, 'ab')).toEqual(await mergeInThread(lists, 'ab'));
  });
});
