import type { EncodedPaper } from '../encoded-paper.js';
import type { PaperFilters, PaperQuery, SearchTerm } from '../source.js';
import type { IndexData } from './builder.js';
import { intersectSets, listSet, setSize, setToList, type DocSet } from './doc-set.js';
import { asciiBytes } from './paper-store.js';
import { scoreDocs } from './scoring.js';
import { matchTerm, type TermMatch } from './term-match.js';
import { orderedWindow, rankedWindow } from './window.js';
import { uint32Array } from './alloc.js';

/** The answer of the engine: exact count and the window's documents. */
export interface EngineAnswer {
  count: number;
  results: EncodedPaper[];
}

/**
 * Answers list queries from an index: matches every term (AND) through the postings, applies
 * the filters, counts exactly, then takes the window in the requested order or by relevance.
 * Synchronous and allocation-light; one engine per index.
 */
export class Engine {
  constructor(readonly index: IndexData) {}

  get size(): number {
    return this.index.n;
  }

  list(query: PaperQuery): EngineAnswer {
    const { index } = this;
    const relevance = query.ordering.kind === 'relevance';
    const { set, matches } = this.match(query.terms, relevance);
    const matched = this.filter(set, query.filters);
    const count = setSize(matched);
    if (query.limit <= 0 || query.offset >= count) return { count, results: [] };
    const end = query.offset + query.limit;
    let window: Uint32Array;
    if (query.ordering.kind === 'relevance') {
      const docs = setToList(matched);
      const scores = scoreDocs(index, docs, query.terms, matches);
      const ties = index.orders.order(query.ordering.then).keys(docs);
      window = rankedWindow(docs, scores, ties, query.offset, end);
    } else {
      window = orderedWindow(index.orders.order(query.ordering.keys), matched, query.offset, end, index.n);
    }
    const results = new Array<EncodedPaper>(window.length);
    for (let i = 0; i < window.length; i++) results[i] = index.store.encoded(window[i]!);
    return { count, results };
  }

  get(id: string): EncodedPaper | null {
    const d = this.index.store.findId(id);
    return d < 0 ? null : this.index.store.encoded(d);
  }

  /**
   * The documents matching every term. For relevance each term is matched over the whole
   * catalogue (its document frequency is needed); otherwise single words (cheap unions) go
   * first and phrases are verified only inside what is left.
   */
  private match(terms: readonly SearchTerm[], relevance: boolean): { set: DocSet; matches: TermMatch[] } {
    const { index } = this;
    const all: DocSet = { kind: 'all', size: index.n };
    if (terms.length === 0) return { set: all, matches: [] };
    const matches: TermMatch[] = [];
    if (relevance) {
      for (const term of terms) matches.push(matchTerm(index, term, null));
      const sets = matches.map((m) => m.set).sort((a, b) => setSize(a) - setSize(b));
      let set: DocSet = all;
      for (const s of sets) set = intersectSets(set, s, index.n);
      return { set, matches };
    }
    const singles = terms.filter((t) => t.words.length === 1).map((t) => matchTerm(index, t, null).set);
    singles.sort((a, b) => setSize(a) - setSize(b));
    let set: DocSet = all;
    for (const s of singles) set = intersectSets(set, s, index.n);
    for (const term of terms) {
      if (term.words.length === 1) continue;
      if (setSize(set) === 0) break;
      set = intersectSets(set, matchTerm(index, term, set.kind === 'all' ? null : set).set, index.n);
    }
    return { set, matches };
  }

  private filter(set: DocSet, filters: PaperFilters): DocSet {
    const { store, n } = this.index;
    if (filters.arxivId !== undefined) set = intersectSets(set, listSet(store.findArxivId(filters.arxivId)), n);
    const title = filters.titleContains?.toLowerCase();
    const abstract = filters.abstractContains?.toLowerCase();
    if (title === undefined && abstract === undefined) return set;
    const titleBytes = title === undefined ? null : asciiBytes(title);
    const abstractBytes = abstract === undefined ? null : asciiBytes(abstract);
    const docs = setToList(set);
    const kept = uint32Array(docs.length);
    let k = 0;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      if (title !== undefined && !store.titleContains(d, title, titleBytes)) continue;
      if (abstract !== undefined && !store.abstractContains(d, abstract, abstractBytes)) continue;
      kept[k++] = d;
    }
    return listSet(kept.subarray(0, k));
  }
}
