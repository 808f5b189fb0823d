import type { OrderKey } from '@paperlist/core';
import { kthSmallest } from './quickselect.js';
import type { PaperFacts } from './term-postings.js';

const RANKS: Record<OrderKey['field'], keyof PaperFacts> = {
  title: 'titleRank',
  published: 'publishedRank',
  arxiv_id: 'arxivIdRank',
  id: 'idRank',
};

/**
 * Compares two papers (by ordinal) in an explicit ordering, `id` ascending last: ranks compared
 * as the values are (see postings-builder.ts's factRows), so the order is the SQL `ORDER BY`'s,
 * nulls last ascending and first descending included.
 */
export function ordinalComparator(keys: readonly OrderKey[], facts: PaperFacts): (a: number, b: number) => number {
  const ranks = keys.map((key) => ({ rank: facts[RANKS[key.field]], sign: key.descending ? -1 : 1 }));
  const ids = facts.idRank;
  return (a, b) => {
    for (const { rank, sign } of ranks) {
      const d = rank[a]! - rank[b]!;
      if (d !== 0) return sign * d;
    }
    return ids[a]! - ids[b]!;
  };
}

/**
 * The window `[offset, offset + limit)` of `ords` in an explicit ordering: a number per paper
 * when the ordering has one field (its rank, then the id's), the `limit + offset` smallest
 * picked in linear time and only they sorted; a comparison sort otherwise.
 */
export function orderWindow(ords: Int32Array, keys: readonly OrderKey[], facts: PaperFacts, offset: number, limit: number): number[] {
  const significant = keys.length > 0 && keys[keys.length - 1]!.field === 'id' && !keys[keys.length - 1]!.descending ? keys.slice(0, -1) : keys;
  const end = Math.min(ords.length, offset + limit);
  if (significant.length > 1) {
    const compare = ordinalComparator(keys, facts);
    return Array.from(ords).sort(compare).slice(offset, end);
  }
  const ids = facts.idRank;
  const n = ids.length;
  const key = significant[0];
  const rank = key === undefined ? null : facts[RANKS[key.field]];
  const sign = key?.descending ? -1 : 1;
  // rank * (n + 1) + id rank: exact in a double below 2^53 (catalogues of up to ~90 million papers).
  const values = new Float64Array(ords.length);
  for (let i = 0; i < ords.length; i++) {
    const ord = ords[i]!;
    values[i] = rank === null ? ids[ord]! : (sign > 0 ? rank[ord]! : n - rank[ord]!) * (n + 1) + ids[ord]!;
  }
  const picked = smallest(values, end);
  picked.sort((a, b) => values[a]! - values[b]!);
  return picked.slice(offset, end).map((i) => ords[i]!);
}

/** Indexes of the `k` smallest values (all distinct). */
function smallest(values: Float64Array, k: number): number[] {
  if (k >= values.length) return Array.from({ length: values.length }, (_, i) => i);
  const threshold = kthSmallest(Float64Array.from(values), k);
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i]! <= threshold) out.push(i);
  return out;
}
