import { prefixWeightOf, termScore, termWeight, type Paper, type PaperFilters, type PaperQuery } from '@paperlist/core';
import { FACT_COLUMNS, type FactColumn } from './facet-facts-builder.js';
import { readFacetFacts, type FacetFacts } from './facet-facts.js';
import { ordinalsStatement, type Statement } from './list-sql.js';
import { authorFilterOrdinals } from './author-filter.js';
import { factFiltersKey, filterOrdinals, hasFactFilters, hasOtherExtensionFilters } from './fact-filters.js';
import { RECHECK_ABSTRACT, RECHECK_TITLE } from './postings-builder.js';
import { readDictionaryWords, type DictionaryWords } from './dictionary-words.js';
import { readRecheckTexts, type RecheckTexts } from './recheck-texts.js';
import { ordinalComparator, orderWindow } from './posting-order.js';
import { bestCandidates, intersect, scoreMatches, type Matches } from './posting-query.js';
import type { SchemaNames } from './schema.js';
import { untilAborted } from './statement-timeout.js';
import type { ListsCache } from './lists-cache.js';
import type { DeltaView } from './delta/delta-log.js';
import { deltaMatches } from './delta/delta-matches.js';
import { mergedPage, type Ranked } from './delta/delta-window.js';
import { readFacts, readSubstringPostings, readTermPostings, StalePostingsError, type MergePostings, type PaperFacts, type RunStatement, type TermPostings } from './term-postings.js';
import { MAX_DICTIONARY_WORD } from './text-columns.js';

/** What answering from the posting lists needs from the source. */
export interface PostingsContext {
  names: SchemaNames;
  /** Runs a statement outside any request (shared work, its own timeout). */
  shared: RunStatement;
  /** Runs a page statement within the request's budget (prepared once per connection under `name`). */
  page: <R>(statement: Statement, name: string) => Promise<R[]>;
  /** Most bytes of merged posting lists kept per generation of the lists. */
  cacheBytes: number;
  /** Decodes and merges a term's lists: on the merge threads, or in this one (`mergeThreads: 0`). */
  merge: MergePostings;
  signal: AbortSignal | undefined;
}

/** The catalogue as the request read it. */
export interface CatalogueState {
  /** The lists' generation (`postings_version`): the version they were built at. */
  generation: string;
  total: number;
  averages: { title: number; abstract: number; authors: number };
  /** What writes changed since the lists (null or unchanged: nothing). */
  delta: DeltaView | null;
}

/**
 * Whether a query's match set comes from the posting lists and facet facts: searches of single
 * words only (the last word of a term is a prefix; phrases, arXiv ids and words cut in the
 * dictionary need the stored text), `title=`/`abstract=` of letters and digits, and the filters
 * of fact-filters.ts (dates, venues, proceedings, author names, tasks, methods). No search and
 * no filter at all: every paper.
 */
export function postingsMatchable(query: Pick<PaperQuery, 'terms' | 'filters'>): boolean {
  const { filters } = query;
  if (filters.arxivId !== undefined || hasOtherExtensionFilters(filters) || substringFilters(query) === null) return false;
  return query.terms.every((term) => term.words.length === 1 && term.arxivId === null && term.words[0]!.length < MAX_DICTIONARY_WORD);
}

/**
 * Whether a list request is answered from the posting lists: its match set is
 * ({@link postingsMatchable}), it searches or filters (a plain listing walks an ordering's
 * index instead), and it has no cursor.
 */
export function postingsAnswer(query: PaperQuery): boolean {
  if (query.after !== undefined || !postingsMatchable(query)) return false;
  return query.terms.length > 0 || substringFilters(query)!.length > 0 || hasFactFilters(query.filters) || query.filters.authors !== undefined;
}

/** A substring the posting lists can find: ASCII letters and digits only, so it lies inside one word. */
const WORD_NEEDLE = /^[a-z0-9]+$/;

/** The query's `title=`/`abstract=` filters as lower-cased needles, or `null` when one is not a {@link WORD_NEEDLE}. */
function substringFilters(query: Pick<PaperQuery, 'filters'>): { field: 'title' | 'abstract'; needle: string }[] | null {
  const out: { field: 'title' | 'abstract'; needle: string }[] = [];
  for (const [field, value] of [['title', query.filters.titleContains], ['abstract', query.filters.abstractContains]] as const) {
    if (value === undefined) continue;
    // The same lower-casing as the SQL filter's pattern (list-sql.ts).
    const needle = value.toLowerCase();
    if (!WORD_NEEDLE.test(needle)) return null;
    out.push({ field, needle });
  }
  return out;
}

/**
 * One list request from the posting lists: the terms' lists (cached per generation, read once
 * however many requests ask) intersected for the exact count; the page chosen here, by score
 * and order ranks (see posting-order.ts), and only its papers read. After writes, the lists'
 * retired papers are left out and the papers written since (`state.delta`) are matched, counted,
 * scored and merged into the page with the reference's functions. Throws `StalePostingsError`
 * when the lists cannot answer (they were built again meanwhile; the caller then answers in SQL).
 */
export async function listFromPostings<R extends Paper>(
  context: PostingsContext,
  cache: ListsCache,
  query: PaperQuery,
  state: CatalogueState,
): Promise<{ count: number; rows: R[]; matches: Int32Array; written: Paper[] }> {
  const found = await matchesOf(context, cache, query, state.generation);
  const delta = state.delta !== null && !state.delta.unchanged ? state.delta : null;
  const matches = delta === null ? found.matches : withoutRetired(found.matches, delta);
  const written = delta === null ? null : deltaMatches(delta, query);
  const { terms } = found;
  const count = matches.ords.length + (written?.matches.length ?? 0);
  const writtenPapers = written === null ? [] : written.matches.map((match) => match.paper.paper);
  if (query.limit === 0 || query.offset >= count) return { count, rows: [], matches: matches.ords, written: writtenPapers };
  const facts = await paperFacts(context, cache, state.generation);
  const end = query.offset + query.limit;
  const relevance = query.ordering.kind === 'relevance';
  const keys = query.ordering.kind === 'relevance' ? query.ordering.then : query.ordering.keys;
  let scores: Float64Array | null = null;
  let scoredTerms = false;
  let idfs: number[] = [];
  if (relevance) {
    idfs = terms.map((term, t) => termWeight(state.total, (delta === null ? term.ords.length : heldCount(term.ords, delta)) + (written?.termCounts[t] ?? 0)));
    // No term weighs anything: every score is 0, and relevance is the catalogue order.
    scoredTerms = terms.length > 0 && idfs.some((idf) => idf !== 0);
    if (scoredTerms) scores = scoreMatches(terms, matches, { idfs, prefixWeights: query.terms.map(prefixWeightOf), averages: state.averages }, facts);
  }
  /** The list's matches at places [start, stop) of the order, with their scores (relevance). */
  const listWindow = (start: number, stop: number): { ords: number[]; scores: number[] | null } => {
    if (scores === null) return { ords: orderWindow(matches.ords, keys, facts, start, stop - start), scores: null };
    const then = ordinalComparator(keys, facts);
    const best = Array.from(bestCandidates(scores, stop));
    best.sort((a, b) => scores![b]! - scores![a]! || then(matches.ords[a]!, matches.ords[b]!));
    const picked = best.slice(start, stop);
    return { ords: picked.map((i) => matches.ords[i]!), scores: picked.map((i) => scores![i]!) };
  };
  const readRows = async (ords: number[]): Promise<(R & { ord: number })[]> => {
    const rows = await context.page<R & { ord: number }>(ordinalsStatement(context.names, ords), 'paperlist_page_by_ord');
    const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
    // A paper missing here was retired after the lists were read: the caller answers in SQL.
    const inOrder = ords.map((ord) => byOrd.get(ord));
    if (inOrder.some((row) => row === undefined)) throw new StalePostingsError('paperlist: a paper of the page is gone');
    return inOrder as (R & { ord: number })[];
  };
  if (written === null || written.matches.length === 0) {
    return { count, rows: await readRows(listWindow(query.offset, end).ords), matches: matches.ords, written: writtenPapers };
  }
  // Papers written since the lists: merged into the page by the same order.
  const prefixWeights = query.terms.map(prefixWeightOf);
  const writtenRanked: Ranked<R>[] = written.matches.map(({ paper, occurrences }) => {
    let score = 0;
    if (scoredTerms) for (let t = 0; t < occurrences.length; t++) score += termScore(idfs[t]!, occurrences[t]!, paper.lengths, state.averages, prefixWeights[t]);
    return { paper: paper.paper as R, score };
  });
  const rows = await mergedPage<R>(
    async (start, stop) => {
      const window = listWindow(start, stop);
      const rows = await readRows(window.ords);
      return rows.map((row, k) => ({ paper: row, score: window.scores?.[k] ?? 0 }));
    },
    matches.ords.length,
    writtenRanked,
    relevance,
    keys,
    query.offset,
    query.limit,
  );
  return { count, rows, matches: matches.ords, written: writtenPapers };
}

/** The matches still stored in the view (the lists' papers that writes retired left out), positions in each term's lists kept alongside. */
function withoutRetired(matches: Matches, view: DeltaView): Matches {
  if (view.retiredLists === 0) return matches;
  const { ords } = matches;
  const kept = new Int32Array(ords.length);
  let n = 0;
  for (let i = 0; i < ords.length; i++) if (view.holds(ords[i]!)) kept[n++] = i;
  if (n === ords.length) return matches;
  const pick = (values: Int32Array) => {
    const out = new Int32Array(n);
    for (let k = 0; k < n; k++) out[k] = values[kept[k]!]!;
    return out;
  };
  return { ords: pick(ords), at: matches.at.map(pick) };
}

/** How many of a term's list papers the view still holds (its share of the document frequency). */
function heldCount(ords: Int32Array, view: DeltaView): number {
  if (view.retiredLists === 0) return ords.length;
  let held = view.heldCounts.get(ords);
  if (held === undefined) {
    held = 0;
    for (let i = 0; i < ords.length; i++) if (view.holds(ords[i]!)) held++;
    view.heldCounts.set(ords, held);
  }
  return held;
}

/** The terms' lists and the papers matching the query's terms and substring filters ({@link postingsMatchable}). */
async function matchesOf(context: PostingsContext, cache: ListsCache, query: Pick<PaperQuery, 'terms' | 'filters'>, generation: string) {
  const needles = substringFilters(query)!;
  const { authors } = query.filters;
  const [terms, filtered, passing, byAuthor] = await Promise.all([
    Promise.all(query.terms.map((term) => termPostings(context, cache, term.words[0]!, generation))),
    Promise.all(needles.map(({ field, needle }) => substringMatches(context, cache, field, needle, generation))),
    hasFactFilters(query.filters) ? factFiltered(context, cache, query.filters, generation) : null,
    authors === undefined ? null : authorFiltered(context, cache, authors, generation),
  ]);
  // The filters' sets come after the terms: scoring reads the terms' positions only.
  const sets: { ords: Int32Array }[] = [...terms, ...filtered.map((ords) => ({ ords }))];
  if (passing !== null) sets.push({ ords: passing });
  if (byAuthor !== null) sets.push({ ords: byAuthor });
  return { terms, matches: intersect(sets) };
}

/** The papers `author=` finds (see author-filter.ts), cached per generation. */
function authorFiltered(context: PostingsContext, cache: ListsCache, alternatives: string[][], generation: string): Promise<Int32Array> {
  const shared = { ...context, signal: undefined };
  return cachedFilter(context, cache, `authors:${JSON.stringify(alternatives)}`, () =>
    authorFilterOrdinals(
      alternatives,
      (word) => termPostings(shared, cache, word, generation),
      () => facetFactsOf(shared, cache, 'author', generation),
    ),
  );
}

/** The papers passing the query's fact filters (see fact-filters.ts), cached per generation. */
function factFiltered(context: PostingsContext, cache: ListsCache, filters: PaperFilters, generation: string): Promise<Int32Array> {
  return cachedFilter(context, cache, `facts:${factFiltersKey(filters)}`, () =>
    filterOrdinals(filters, (column) => facetFactsOf({ ...context, signal: undefined }, cache, column, generation)),
  );
}

/** A filter's papers, computed once per generation of the lists by whichever request asks first (shared, so not aborted with it). */
function cachedFilter(context: PostingsContext, cache: ListsCache, key: string, compute: () => Promise<Int32Array>): Promise<Int32Array> {
  let entry = cache.filtered.get(key);
  if (entry === undefined) {
    const reading = compute();
    entry = reading;
    cache.filtered.set(key, reading);
    reading.catch(() => {
      if (cache.filtered.get(key) === reading) cache.filtered.delete(key);
    });
    cache.trim();
  }
  return untilAborted(entry, context.signal);
}

/**
 * The ordinals of the papers matching a {@link postingsMatchable} query, ascending; `null` when
 * it neither searches nor filters (every paper).
 */
export async function matchingOrdinals(context: PostingsContext, cache: ListsCache, query: Pick<PaperQuery, 'terms' | 'filters'>, generation: string): Promise<Int32Array | null> {
  if (query.terms.length === 0 && substringFilters(query)!.length === 0 && !hasFactFilters(query.filters) && query.filters.authors === undefined) return null;
  return (await matchesOf(context, cache, query, generation)).matches.ords;
}

/** One column's facet facts, read once per generation of the lists and shared. */
export function facetFactsOf(context: PostingsContext, cache: ListsCache, field: FactColumn, generation: string): Promise<FacetFacts> {
  let entry = cache.facetFacts.get(field);
  if (entry === undefined) {
    const reading = readFacetFacts(context.names, field, generation, context.shared);
    entry = reading;
    cache.facetFacts.set(field, reading);
    reading.catch(() => {
      if (cache.facetFacts.get(field) === reading) cache.facetFacts.delete(field);
    });
  }
  return untilAborted(entry, context.signal);
}

/** Reads (or finds cached) a term's merged lists; the read is shared and outlives the request that started it. */
function termPostings(context: PostingsContext, cache: ListsCache, prefix: string, generation: string): Promise<TermPostings> {
  const { postings } = cache;
  let entry = postings.get(prefix);
  if (entry !== undefined) {
    // Most recently used last.
    postings.delete(prefix);
    postings.set(prefix, entry);
    return untilAborted(entry, context.signal);
  }
  entry = readTermPostings(context.names, prefix, generation, context.shared, context.merge);
  postings.set(prefix, entry);
  entry.then(
    (read) => {
      if (postings.get(prefix) !== entry) return;
      cache.postingSizes.set(prefix, read.bytes);
      cache.postingBytes += read.bytes;
      // Over budget: forget the least recently used lists read (the one just read stays).
      for (const key of postings.keys()) {
        if (cache.postingBytes <= context.cacheBytes) break;
        const size = cache.postingSizes.get(key);
        if (size === undefined || key === prefix) continue;
        postings.delete(key);
        cache.postingSizes.delete(key);
        cache.postingBytes -= size;
      }
    },
    () => {
      if (postings.get(prefix) === entry) postings.delete(prefix);
    },
  );
  return untilAborted(entry, context.signal);
}

/**
 * The papers whose title (or abstract) contains `needle`, ascending: from the lists of the
 * dictionary words containing it (found in memory: dictionary-words.ts), for papers whose field
 * is ASCII with no word cut (there the needle, letters and digits only, can only lie inside a
 * word), and from the text of the others (the recheck flag; about 1 % of a catalogue; held in
 * memory: recheck-texts.ts). Shared and cached per generation.
 */
function substringMatches(context: PostingsContext, cache: ListsCache, field: 'title' | 'abstract', needle: string, generation: string): Promise<Int32Array> {
  const key = `${field}:${needle}`;
  let entry = cache.substrings.get(key);
  if (entry === undefined) {
    const shared = { ...context, signal: undefined };
    entry = (async () => {
      const [dictionary, facts, rechecked] = await Promise.all([dictionaryOf(shared, cache, generation), paperFacts(shared, cache, generation), recheckTextsOf(shared, cache, field, generation)]);
      const candidates = await readSubstringPostings(context.names, dictionary.containing(needle), generation, context.shared, context.merge);
      if (candidates === null) throw new StalePostingsError(`paperlist: "${needle}" is in too many words to read their lists`);
      const flag = field === 'title' ? RECHECK_TITLE : RECHECK_ABSTRACT;
      const counts = field === 'title' ? candidates.titleAll : candidates.abstractAll;
      const { flags } = facts;
      const found: number[] = [];
      for (let i = 0; i < candidates.ords.length; i++) {
        const ord = candidates.ords[i]!;
        if (counts[i]! > 0 && (flags[ord]! & flag) === 0) found.push(ord);
      }
      for (const ord of rechecked.containing(needle)) found.push(ord);
      return Int32Array.from(found).sort();
    })();
    cache.substrings.set(key, entry);
    const settled = entry;
    settled.catch(() => {
      if (cache.substrings.get(key) === settled) cache.substrings.delete(key);
    });
    cache.trim();
  }
  return untilAborted(entry, context.signal);
}

/** The words that have posting lists, read once per generation and shared. */
function dictionaryOf(context: PostingsContext, cache: ListsCache, generation: string): Promise<DictionaryWords> {
  if (cache.dictionary === undefined) {
    const reading = readDictionaryWords(context.names, generation, context.shared);
    cache.dictionary = reading;
    reading.catch(() => {
      if (cache.dictionary === reading) cache.dictionary = undefined;
    });
  }
  return untilAborted(cache.dictionary, context.signal);
}

/** The `field` texts of the papers flagged for a recheck, read once per generation and shared. */
function recheckTextsOf(context: PostingsContext, cache: ListsCache, field: 'title' | 'abstract', generation: string): Promise<RecheckTexts> {
  let entry = cache.rechecks.get(field);
  if (entry === undefined) {
    const reading = (async () => {
      const { flags } = await paperFacts(context, cache, generation);
      const flag = field === 'title' ? RECHECK_TITLE : RECHECK_ABSTRACT;
      const flagged: number[] = [];
      for (let ord = 0; ord < flags.length; ord++) if ((flags[ord]! & flag) !== 0) flagged.push(ord);
      return readRecheckTexts(context.names, field, Int32Array.from(flagged), generation, context.shared);
    })();
    entry = reading;
    cache.rechecks.set(field, reading);
    reading.catch(() => {
      if (cache.rechecks.get(field) === reading) cache.rechecks.delete(field);
    });
  }
  return untilAborted(entry, context.signal);
}

/**
 * Reads a new catalogue version's per-paper tables (the order ranks, when its lists are fresh;
 * every facet column, when its facts are) in the background, as the memory source builds its
 * index before answering: they are the version's index, not a cache of answers, and the first
 * requests to need them would otherwise spend their budget reading them. Failures are left to the
 * requests, which read again.
 */
export function warmCatalogue(context: PostingsContext, cache: ListsCache, generation: string, fresh: { postings: boolean; facets: boolean }): void {
  const background = { ...context, signal: undefined };
  const reads: Promise<unknown>[] = [];
  if (fresh.postings) {
    reads.push(paperFacts(background, cache, generation), dictionaryOf(background, cache, generation));
    for (const field of ['title', 'abstract'] as const) reads.push(recheckTextsOf(background, cache, field, generation));
  }
  if (fresh.facets) for (const field of FACT_COLUMNS) reads.push(facetFactsOf(background, cache, field, generation));
  for (const read of reads) read.catch(() => {});
}

function paperFacts(context: PostingsContext, cache: ListsCache, generation: string): Promise<PaperFacts> {
  if (cache.facts === undefined) {
    const reading = readFacts(context.names, generation, context.shared);
    cache.facts = reading;
    reading.catch(() => {
      if (cache.facts === reading) cache.facts = undefined;
    });
  }
  return untilAborted(cache.facts, context.signal);
}
