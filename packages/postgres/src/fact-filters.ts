import { compareCodePoints, publishedInRange, type PaperFilters } from '@paperlist/core';
import { authorFilterAnswerable } from './author-filter.js';
import type { FactColumn } from './facet-facts-builder.js';
import type { FacetFacts } from './facet-facts.js';

/** A filter the facet facts answer: the papers holding one of the wanted values of a column. */
interface FactFilter {
  column: FactColumn;
  /** Whether a value (by rank) is one the filter wants. */
  wants: (values: readonly string[]) => Uint8Array;
}

/**
 * The query's filters that the facet facts answer, with the reference's meaning
 * (`matchesExtensionFilters`): the date range, exact author names, proceedings, venue keys,
 * task and method slugs. The others (`author=` words, arXiv ids, ids) are not among them.
 */
function factFilters(filters: PaperFilters): FactFilter[] {
  const out: FactFilter[] = [];
  const { published } = filters;
  if (published !== undefined) {
    out.push({ column: 'published', wants: (values) => Uint8Array.from(values, (day) => (publishedInRange(day, published.from, published.to) ? 1 : 0)) });
  }
  const exact: [FactColumn, string[] | undefined][] = [
    ['author', filters.authorNames],
    ['proceeding', filters.proceedings],
    ['venue', filters.venues],
    ['task', filters.tasks],
    ['method', filters.methods],
  ];
  for (const [column, wanted] of exact) if (wanted !== undefined) out.push({ column, wants: (values) => ranksOf(values, wanted) });
  return out;
}

/** Whether answering the query's filters from the lists needs the facet facts (`author=` checks names there). */
export function needsFacetFacts(filters: PaperFilters): boolean {
  return hasFactFilters(filters) || filters.authors !== undefined;
}

/** Whether the query has filters the facet facts answer. */
export function hasFactFilters(filters: PaperFilters): boolean {
  return factFilters(filters).length > 0;
}

/** The extension filters neither the facet facts nor the posting lists answer (the source's SQL does). */
export function hasOtherExtensionFilters(filters: PaperFilters): boolean {
  return (filters.authors !== undefined && !authorFilterAnswerable(filters.authors)) || filters.arxivIds !== undefined || filters.ids !== undefined;
}

/** The key of the query's fact filters, for a cache of their matches. */
export function factFiltersKey(filters: PaperFilters): string {
  const { published, authorNames, proceedings, venues, tasks, methods } = filters;
  return JSON.stringify([published?.from, published?.to, authorNames, proceedings, venues, tasks, methods]);
}

/** The ordinals of the papers passing every fact filter, ascending (a pass over every paper). */
export async function filterOrdinals(filters: PaperFilters, factsOf: (column: FactColumn) => Promise<FacetFacts>): Promise<Int32Array> {
  const tests = await Promise.all(
    factFilters(filters).map(async ({ column, wants }) => {
      const facts = await factsOf(column);
      return { starts: facts.starts, ranks: facts.ranks, wanted: wants(facts.values) };
    }),
  );
  const papers = Math.min(...tests.map((test) => test.starts.length - 1));
  const out = new Int32Array(papers);
  let n = 0;
  // Ordinal 0 is no paper.
  next: for (let ord = 1; ord < papers; ord++) {
    for (const { starts, ranks, wanted } of tests) {
      let found = false;
      for (let i = starts[ord]!, end = starts[ord + 1]!; i < end && !found; i++) found = wanted[ranks[i]!] === 1;
      if (!found) continue next;
    }
    out[n++] = ord;
  }
  return out.slice(0, n);
}

/** The wanted values' ranks among `values` (sorted by code points), marked. */
function ranksOf(values: readonly string[], wanted: readonly string[]): Uint8Array {
  const marks = new Uint8Array(values.length);
  for (const value of wanted) {
    const rank = rankOf(values, value);
    if (rank >= 0) marks[rank] = 1;
  }
  return marks;
}

/** A value's rank among a facet's `values` (sorted by code points), or -1 when it is not one of them. */
export function rankOf(values: readonly string[], value: string): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(values[mid]!, value) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < values.length && values[lo] === value ? lo : -1;
}
