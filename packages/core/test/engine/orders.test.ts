import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderBook, type OrderData } from '../../src/engine/orders.js';
import { inverse, sortByRank } from '../../src/engine/ranks.js';
import type { OrderField } from '../../src/source.js';

/*
 * `-published` is not stored: it is read from `published`, group of equal days by group from the
 * last (ties stay by id ascending, undated papers come first). Here it is checked against the
 * permutation the index used to keep (a stable counting sort of the documents in id order,
 * descending), at every window and with match sets.
 */

/** Orders of `n` documents from drawn ranks (`nulls` of `distinct` is the null rank). */
function orderData(byId: number[], published: number[], arxiv: number[], titles: number[]): { data: OrderData; expected: Record<string, Uint32Array> } {
  const n = byId.length;
  const byIdArray = Uint32Array.from(byId);
  const distinct = (ranks: number[]) => Math.max(0, ...ranks);
  const ranks = {
    id: inverse(byIdArray),
    // Documents are numbered by title: title ranks ascend with the document number.
    title: Uint32Array.from(titles.slice().sort((a, b) => a - b)),
    published: Uint32Array.from(published),
    arxiv_id: Uint32Array.from(arxiv),
  };
  const maxRank = { id: n, title: distinct(titles), published: distinct(published), arxiv_id: distinct(arxiv) };
  const identity = Uint32Array.from({ length: n }, (_, d) => d);
  const data: OrderData = {
    n,
    ranks,
    maxRank,
    byId: byIdArray,
    publishedAsc: sortByRank(byIdArray, ranks.published, maxRank.published, false),
    arxivAsc: sortByRank(byIdArray, ranks.arxiv_id, maxRank.arxiv_id, false),
    arxivDesc: sortByRank(byIdArray, ranks.arxiv_id, maxRank.arxiv_id, true),
    titleDesc: sortByRank(identity, ranks.title, maxRank.title, true),
  };
  const expected = { '-published': sortByRank(byIdArray, ranks.published, maxRank.published, true) };
  return { data, expected };
}

const catalogue = fc.integer({ min: 1, max: 300 }).chain((n) =>
  fc.record({
    byId: fc.shuffledSubarray(
      Array.from({ length: n }, (_, i) => i),
      { minLength: n, maxLength: n },
    ),
    // Few distinct values (long groups), or many (groups of one, and ranks no paper has).
    published: fc.oneof(fc.array(fc.integer({ min: 0, max: 6 }), { minLength: n, maxLength: n }), fc.array(fc.integer({ min: 0, max: 2 * n }), { minLength: n, maxLength: n })),
    arxiv: fc.array(fc.integer({ min: 0, max: n }), { minLength: n, maxLength: n }),
    titles: fc.array(fc.integer({ min: 0, max: 3 * n }), { minLength: n, maxLength: n }),
    from: fc.nat({ max: n + 2 }),
    take: fc.nat({ max: n + 2 }),
    skip: fc.nat({ max: 20 }),
    members: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
  }),
);

describe('-published read from published', () => {
  it('list and walk exactly as the stored descending permutations did', () => {
    fc.assert(
      fc.property(catalogue, ({ byId, published, arxiv, titles, from, take, skip, members }) => {
        const { data, expected } = orderData(byId, published, arxiv, titles);
        const book = new OrderBook(data);
        const bits = new Uint32Array(Math.ceil(byId.length / 32) + 1);
        members.forEach((m, d) => {
          if (m) bits[d >>> 5]! |= 1 << (d & 31);
        });
        for (const field of ['published'] as OrderField[]) {
          const order = book.order([{ field, descending: true }]);
          const want = expected[`-${field}`]!;
          expect(Array.from(order.slice(from, from + take))).toEqual(Array.from(want.slice(from, from + take)));
          const walked = Array.from(want.slice(from))
            .filter((d) => members[d])
            .slice(skip, skip + take);
          expect(Array.from(order.walk(bits, skip, take, from))).toEqual(walked);
          expect(order.isIdentity).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
