import { createRequire } from 'node:module';
import {
  comparePapersBy,
  createMemorySource,
  createScanSource,
  parseOrderKeys,
  type Paper,
  type PaperQuery,
  type PaperSource,
} from '@paperlist/core';
import type { BenchQuery } from './query-set.js';

const require = createRequire(import.meta.url);

/** An answer: exact count and the window, as corpus positions (index in the papers array). */
export interface Answer {
  count: number;
  ids: number[];
}

/** Something that answers the benchmark's queries. */
export interface Contender {
  readonly name: string;
  /** What differs from paperlist's semantics, printed with the results. */
  readonly notes: string;
  /** Bookkeeping of the benchmark itself (not the contender's memory): done before the measured build. */
  prepare?(papers: readonly Paper[]): void;
  build(papers: readonly Paper[]): void;
  answer(query: BenchQuery, parsed: PaperQuery): Answer | Promise<Answer>;
}

/** The papers' positions by id, to report every contender's answers the same way. */
function positionsById(papers: readonly Paper[]): Map<string, number> {
  return new Map(papers.map((p, i) => [p.id, i]));
}

/** paperlist's source (the engine, or the naive scan reference). */
export function paperlistContender(name: 'engine' | 'scan'): Contender {
  let source: PaperSource;
  let positions: Map<string, number>;
  return {
    name,
    notes: name === 'engine' ? 'createMemorySource' : 'createScanSource: the naive reference the engine is tested against',
    prepare(papers) {
      // Maps answers back to corpus positions: the benchmark's, so outside the measured memory.
      positions = positionsById(papers);
    },
    build(papers) {
      source = name === 'engine' ? createMemorySource(papers) : createScanSource(papers);
    },
    async answer(_query, parsed) {
      const page = await source.list(parsed);
      return { count: page.count, ids: page.results.map((r) => positions.get(r.id)!) };
    },
  };
}

/**
 * Orders a library's matches by a paperlist ordering (its results come in its own relevance
 * order, or in insertion order): precomputed ranks of every paper, like an application would.
 */
function rankOrders(papers: readonly Paper[]): Record<string, Uint32Array> {
  const orders: Record<string, Uint32Array> = {};
  for (const ordering of ['-published', 'title']) {
    const compare = comparePapersBy(parseOrderKeys(ordering)!);
    const sorted = papers.map((_, i) => i).sort((a, b) => compare(papers[a]!, papers[b]!));
    const rank = new Uint32Array(papers.length);
    sorted.forEach((i, r) => (rank[i] = r));
    orders[ordering] = rank;
  }
  return orders;
}

function windowOf(matches: number[], query: BenchQuery, ranks: Record<string, Uint32Array>): Answer {
  if (query.ordering !== '') {
    const rank = ranks[query.ordering]!;
    matches.sort((a, b) => rank[a]! - rank[b]!);
  }
  return { count: matches.length, ids: matches.slice(query.offset, query.offset + query.limit) };
}

/** Phrases are not supported by the libraries: the quotes are dropped (an AND of the words). */
const plainWords = (q: string) => q.replaceAll('"', ' ').trim();

export function miniSearchContender(): Contender {
  const MiniSearch = require('minisearch') as typeof import('minisearch').default;
  let index: InstanceType<typeof MiniSearch<{ i: number; title: string; abstract: string; authors: string }>>;
  let ranks: Record<string, Uint32Array>;
  return {
    name: 'MiniSearch',
    notes:
      'minisearch 7: fields title, abstract, authors; search with prefix: true, combineWith: AND; count = all results; ' +
      'its own BM25+ ranking for relevance; other orders sort its results by precomputed ranks; no phrases (words ANDed), no accent folding',
    build(papers) {
      index = new MiniSearch({ idField: 'i', fields: ['title', 'abstract', 'authors'], storeFields: [] });
      index.addAll(papers.map((p, i) => ({ i, title: p.title, abstract: p.abstract, authors: p.authors.join(' ; ') })));
      ranks = rankOrders(papers);
    },
    answer(query) {
      const results = index.search(plainWords(query.q), { prefix: true, combineWith: 'AND' });
      return windowOf(results.map((r) => r.id as number), query, ranks);
    },
  };
}

export function flexSearchContender(): Contender {
  const { Index } = require('flexsearch') as typeof import('flexsearch');
  let index: InstanceType<typeof Index>;
  let ranks: Record<string, Uint32Array>;
  let n = 0;
  return {
    name: 'FlexSearch',
    notes:
      'flexsearch 0.8: one Index over title + abstract + authors, tokenize: forward (prefixes); search with limit = catalogue size for an exact count; ' +
      'its own ranking for relevance; other orders sort its results by precomputed ranks; no phrases (words ANDed)',
    build(papers) {
      index = new Index({ tokenize: 'forward' });
      papers.forEach((p, i) => index.add(i, `${p.title}\n${p.abstract}\n${p.authors.join(' ; ')}`));
      ranks = rankOrders(papers);
      n = papers.length;
    },
    answer(query) {
      const results = index.search(plainWords(query.q), { limit: n }) as number[];
      return windowOf([...results], query, ranks);
    },
  };
}
