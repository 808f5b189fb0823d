import type { IndexData } from '../engine/builder.js';
import type { FieldLengths } from '../search/relevance.js';

const indexTotals = new WeakMap<IndexData, FieldLengths>();

/** The field lengths summed over an index's documents (oversize ones from their own table); kept per index. */
export function lengthTotals(index: IndexData): FieldLengths {
  let totals = indexTotals.get(index);
  if (totals !== undefined) return totals;
  const { titleLength, abstractLength, authorsLength, oversizeLengths } = index.layout;
  totals = { title: 0, abstract: 0, authors: 0 };
  for (let d = 0; d < index.n; d++) {
    totals.title += titleLength[d]!;
    totals.abstract += abstractLength[d]!;
    totals.authors += authorsLength[d]!;
  }
  for (let i = 0; i < oversizeLengths.length; i += 3) {
    totals.title += oversizeLengths[i]!;
    totals.abstract += oversizeLengths[i + 1]!;
    totals.authors += oversizeLengths[i + 2]!;
  }
  indexTotals.set(index, totals);
  return totals;
}
