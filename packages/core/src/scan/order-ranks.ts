import { compareNullable, orderValue } from '../ordering/compare-papers.js';
import { ORDER_FIELDS } from '../ordering/parse-ordering.js';
import type { Paper } from '../paper.js';
import type { OrderField, OrderKey } from '../source.js';

/**
 * For each ordering field, each paper's rank among all values of that field ascending
 * (equal values share a rank, nulls rank last). Comparing ranks replaces comparing values,
 * so any ordering becomes integer comparisons.
 */
export type FieldRanks = Record<OrderField, Uint32Array>;

/** Ranks every paper by every ordering field. */
export function computeFieldRanks(papers: readonly Paper[]): FieldRanks {
  const ranks = {} as FieldRanks;
  for (const field of ORDER_FIELDS) ranks[field] = rankBy(papers, field);
  return ranks;
}

function rankBy(papers: readonly Paper[], field: OrderField): Uint32Array {
  const values = papers.map((paper) => orderValue(paper, field));
  const order = Array.from(values.keys()).sort((a, b) => compareNullable(values[a]!, values[b]!));
  const ranks = new Uint32Array(papers.length);
  let rank = 0;
  for (let i = 0; i < order.length; i++) {
    if (i > 0 && compareNullable(values[order[i - 1]!]!, values[order[i]!]!) !== 0) rank++;
    ranks[order[i]!] = rank;
  }
  return ranks;
}

/** A comparator of paper indices under ordering keys, from precomputed ranks. */
export function compareIndicesBy(keys: readonly OrderKey[], ranks: FieldRanks): (a: number, b: number) => number {
  const columns = keys.map((key) => ({ ranks: ranks[key.field], sign: key.descending ? -1 : 1 }));
  return (a, b) => {
    for (const { ranks: column, sign } of columns) {
      const d = column[a]! - column[b]!;
      if (d !== 0) return sign * d;
    }
    return 0;
  };
}

/** Every paper index in the order of the keys. */
export function orderPermutation(keys: readonly OrderKey[], ranks: FieldRanks, size: number): Uint32Array {
  const permutation = new Uint32Array(size);
  for (let i = 0; i < size; i++) permutation[i] = i;
  return permutation.sort(compareIndicesBy(keys, ranks));
}
