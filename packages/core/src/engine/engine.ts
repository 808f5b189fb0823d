import type { EncodedPaper } from '../encoded-paper.js';
import type { PaperFilters, PaperQuery, SearchTerm } from '../source.js';
import type { IndexData } from './builder.js';
import { intersectSets, listSet, setSize, setToList, type DocSet } from './doc-set.js';
import { ownWeights, relevanceWindow, type RankedWindow, type RelevanceWeights, type Scratch } from './relevance.js';
import { filterByRange, matchTerm, rangeFrequency, type TermMatch } from './term-match.js';
import { orderedWindow } from './window.js';
import { seekWindow } from './seek-window.js';
import { facetCounts } from './facet-counts.js';
import type { FacetCounts } from '../facets/facet-types.js';
import { PhraseJoin } from './phrase-join.js';
import { substringMatches, type TextField } from './substring/substring-filter.js';
import { uint32Array } from './alloc.js';
import { bitsetWords } from './bits.js';
import { withLimits, type WorkLimits } from './work-budget.js';
import type { OrderKey, OrderPosition } from '../source.js';
import { applyExtensionFilters } from './extension-filters.js';
import { findArxivDocs } from './arxiv-lookup.js';

/** The answer of the engine: exact count and the window's documents. */
export interface EngineAnswer {
  count: number;
  results: EncodedPaper[];
}

/** The engine's answer by document numbers (the index's own), for the caller to encode. */
export interface EngineWindow {
  count: number;
  docs: Uint32Array;
  /** The facets the query asked for, counted over every match. */
  facets?: FacetCounts;
}

const NO_LIMITS: WorkLimits = { deadline: Infinity };

/**
 * Answers list queries from an index: matches every term (AND) through the postings, applies
 * the filters, counts exactly, then takes the window in the requested order or by relevance.
 * Synchronous and allocation-light; one engine per index.
 */
export class Engine {
  private scratchBits: Uint32Array | null = null;
  private scratchCounts: Uint32Array | null = null;

  private readonly join: PhraseJoin;

  constructor(readonly index: IndexData) {
    this.join = new PhraseJoin(index);
  }

  /** A zeroed bitset over the documents, lent for one query step (returned zeroed). */
  private readonly scratch = (): Uint32Array => (this.scratchBits ??= uint32Array(bitsetWords(this.index.n)));

  /** Zeroed scratch arrays for relevance (returned zeroed). */
  private readonly scratchArrays: Scratch = {
    bits: this.scratch,
    counts: () => (this.scratchCounts ??= uint32Array(this.index.n)),
  };

  get size(): number {
    return this.index.n;
  }

  list(query: PaperQuery, limits: WorkLimits = NO_LIMITS): EngineAnswer {
    const { count, docs } = this.window(query, limits);
    const results = new Array<EncodedPaper>(docs.length);
    for (let i = 0; i < docs.length; i++) results[i] = this.index.store.encoded(docs[i]!);
    return { count, results };
  }

  /**
   * The count and the window's documents, within `limits`: a query past its deadline or
   * cancelled throws `QueryInterruptedError` (and leaves the engine ready for the next).
   */
  window(query: PaperQuery, limits: WorkLimits = NO_LIMITS): EngineWindow {
    try {
      return withLimits(limits, () => this.answer(query));
    } catch (error) {
      this.reset();
      throw error;
    }
  }

  /**
   * Clears the scratch arrays after an interrupted step (which may have left marks in them;
   * they must stay zeroed). Callers that run the steps below under their own limits call it
   * when a step throws.
   */
  reset(): void {
    this.scratchBits?.fill(0);
    this.scratchCounts?.fill(0);
    this.join.reset();
  }

  private answer(query: PaperQuery): EngineWindow {
    const { index } = this;
    const { set: matched, matches } = this.matched(query, null);
    const count = setSize(matched);
    const facets = query.facets === undefined || query.facets.length === 0 ? undefined : facetCounts(index, matched, query.facets, query.facetLimit);
    const answer = (docs: Uint32Array): EngineWindow => (facets === undefined ? { count, docs } : { count, docs, facets });
    if (query.limit <= 0 || query.offset >= count) return answer(new Uint32Array(0));
    const end = query.offset + query.limit;
    let window: Uint32Array;
    const weights = query.ordering.kind === 'relevance' ? ownWeights(index, matches) : null;
    if (query.ordering.kind === 'relevance' && !isSilent(weights!)) {
      window = this.ranked(matched, query.terms, matches, query.ordering.then, query.offset, end, weights!).docs;
    } else if (query.ordering.kind === 'relevance') {
      window = this.ordered(query.ordering.then, matched, query.offset, end);
    } else if (query.after !== undefined) {
      window = this.seek(query.ordering.keys, query.after, matched, query.limit);
    } else {
      window = this.ordered(query.ordering.keys, matched, query.offset, end);
    }
    return answer(window);
  }

  /*
   * The steps of a query, for a catalogue of several segments (see `segments/`), which runs
   * them on each segment's engine under its own limits and merges the answers.
   */

  /**
   * The documents matching the query's terms and filters, among `live` ones only when given
   * (a segment's documents not deleted since), and for relevance each term's own match over
   * the whole index (its document frequency is needed: see `match`).
   */
  matched(query: PaperQuery, live: DocSet | null): { set: DocSet; matches: TermMatch[] } {
    const relevance = query.ordering.kind === 'relevance';
    const { set, matches } = this.match(query.terms, relevance);
    const filtered = this.filter(set, query.filters);
    return { set: live === null ? filtered : intersectSets(filtered, live, this.index.n), matches };
  }

  /** The documents at positions `[offset, end)` of `set` in the order of `keys`. */
  ordered(keys: readonly OrderKey[], set: DocSet, offset: number, end: number): Uint32Array {
    const { index } = this;
    return orderedWindow(index.orders.order(keys), set, offset, end, index.n, this.scratch);
  }

  /** The first `limit` documents of `set` strictly after `position` in the order of `keys`. */
  seek(keys: readonly OrderKey[], position: OrderPosition, set: DocSet, limit: number): Uint32Array {
    const { index } = this;
    return seekWindow(index, index.orders.order(keys), keys, position, set, limit, this.scratch);
  }

  /** The window `[offset, end)` of `set` by relevance under `weights`, ties in the order of `then`, with the scores. */
  ranked(set: DocSet, terms: readonly SearchTerm[], matches: readonly TermMatch[], then: readonly OrderKey[], offset: number, end: number, weights: RelevanceWeights): RankedWindow {
    const { index } = this;
    return relevanceWindow(index, set, setToList(set), terms, matches, index.orders.order(then), offset, end, this.scratchArrays, weights);
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
      for (const term of terms) matches.push(matchTerm(index, this.join, term, null));
      const sets = matches.map((m) => m.set).sort((a, b) => setSize(a) - setSize(b));
      let set: DocSet = all;
      for (const s of sets) set = intersectSets(set, s, index.n);
      return { set, matches };
    }
    // Single words, the rarest first: the first is a union of postings; each next one either
    // filters the documents so far (few of them, few words in its range) or is intersected whole.
    const singles = terms
      .filter((t) => t.words.length === 1)
      .map((term) => {
        const [from, to] = index.vocabulary.prefixRange(term.words[0]!);
        return { term, from, to, frequency: rangeFrequency(index, from, to) };
      })
      .sort((a, b) => a.frequency - b.frequency);
    let set: DocSet = all;
    for (const single of singles) {
      const size = setSize(set);
      if (set.kind !== 'all' && single.term.arxivId === null && size * (single.to - single.from) * 4 < single.frequency) {
        set = listSet(filterByRange(index, setToList(set), single.from, single.to));
      } else {
        set = intersectSets(set, matchTerm(index, this.join, single.term, null).set, index.n);
      }
      if (setSize(set) === 0) return { set, matches };
    }
    for (const term of terms) {
      if (term.words.length === 1) continue;
      if (setSize(set) === 0) break;
      set = intersectSets(set, matchTerm(index, this.join, term, set.kind === 'all' ? null : set).set, index.n);
    }
    return { set, matches };
  }

  /** The documents of `set` that pass the exact and substring filters. */
  private filter(set: DocSet, filters: PaperFilters): DocSet {
    const { store, n } = this.index;
    if (filters.arxivId !== undefined) set = intersectSets(set, listSet(findArxivDocs(this.index, filters.arxivId)), n);
    set = applyExtensionFilters(this.index, set, filters);
    const substrings: [TextField, string | undefined][] = [
      ['title', filters.titleContains],
      ['abstract', filters.abstractContains],
    ];
    for (const [field, needle] of substrings) {
      if (needle === undefined || setSize(set) === 0) continue;
      set = substringMatches(this.index, this.join, field, needle.toLowerCase(), set.kind === 'all' ? null : set);
    }
    return set;
  }
}

/** Whether no term of a relevance query scores (each matches most of the catalogue): the order is then the ties' order. */
export function isSilent(weights: RelevanceWeights): boolean {
  return weights.idfs.every((idf) => idf === 0);
}
