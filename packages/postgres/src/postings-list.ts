import { prefixWeightOf, termWeight, type PaperFilters, type PaperQuery } from '@paperlist/core';
import { FACT_COLUMNS, type FactColumn } from './facet-facts-builder.js';
import { readFacetFacts, type FacetFacts } from './facet-facts.js';
import { ordinalsStatement, type Statement } from './list-sql.js';
import { authorFilterOrdinals } from './author-filter.js';
import { factFiltersKey, filterOrdinals, hasFactFilters, hasOtherExtensionFilters } from './fact-filters.js';
import { RECHECK_ABSTRACT, RECHECK_TITLE } from './postings-builder.js';
import { readDictionaryWords, type DictionaryWords } from './dictionary-words.js';
import { readRecheckTexts, type RecheckTexts } from './recheck-texts.js';
import { ordinalComparator, orderWindow } from './posting-order.js';
import { bestCandidates, intersect, scoreMatches } from './posting-query.js';
import type { SchemaNames } from './schema.js';
import { untilAborted } from './statement-timeout.js';
import type { CatalogueCache } from './term-resolver.js';
import { readFacts, readSubstringPostings, readTermPostings, StalePostingsError, type MergePostings, type PaperFacts, type RunStatement, type TermPostings } from './term-postings.js';
import { MAX_DICTIONARY_WORD } from './text-columns.js';

/** What answering from the posting lists needs from the source. */
export interface PostingsContext {
  names: SchemaNames;
  /** Runs a statement outside any request (shared work, its own timeout). */
  shared: RunStatement;
  /** Runs a page statement within the request's budget (prepared once per connection under `name`). */
  page: <R>(statement: Statement, name: string) => Promise<R[]>;
  /** Most bytes of merged posting lists kept per catalogue version. */
  cacheBytes: number;
  /** Decodes and merges a term's lists: on the merge threads, or in this one (`mergeThreads: 0`). */
  merge: MergePostings;
  signal: AbortSignal | undefined;
}

/** The catalogue as the request read it. */
export interface CatalogueState {
  version: string;
  total: number;
  averages: { title: number; abstract: number; authors: number };
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
 * One list request from the posting lists: the terms' lists (cached per version, read once
 * however many requests ask) intersected for the exact count; the page chosen here, by score
 * and order ranks (see posting-order.ts), and only its papers read. Throws
 * `StalePostingsError` when the lists are not those of `state.version` (the caller then
 * answers from the word texts).
 */
export async function listFromPostings<R>(
  context: PostingsContext,
  cache: CatalogueCache,
  query: PaperQuery,
  state: CatalogueState,
): Promise<{ count: number; rows: R[]; matches: Int32Array }> {
  const { terms, matches } = await matchesOf(context, cache, query, state.version);
  const count = matches.ords.length;
  if (query.limit === 0 || query.offset >= count) return { count, rows: [], matches: matches.ords };
  const facts = await paperFacts(context, cache, state.version);
  const end = query.offset + query.limit;
  let page: number[];
  if (query.ordering.kind === 'relevance') {
    const idfs = terms.map((term) => termWeight(state.total, term.ords.length));
    // No term weighs anything: every score is 0, and relevance is the catalogue order.
    if (terms.length === 0 || idfs.every((idf) => idf === 0)) page = orderWindow(matches.ords, query.ordering.then, facts, query.offset, query.limit);
    else {
      const scores = scoreMatches(terms, matches, { idfs, prefixWeights: query.terms.map(prefixWeightOf), averages: state.averages }, facts);
      const then = ordinalComparator(query.ordering.then, facts);
      const best = Array.from(bestCandidates(scores, end));
      best.sort((a, b) => scores[b]! - scores[a]! || then(matches.ords[a]!, matches.ords[b]!));
      page = best.slice(query.offset, end).map((i) => matches.ords[i]!);
    }
  } else {
    page = orderWindow(matches.ords, query.ordering.keys, facts, query.offset, query.limit);
  }
  const found = await context.page<R & { ord: number }>(ordinalsStatement(context.names, page), 'paperlist_page_by_ord');
  const byOrd = new Map(found.map((row) => [Number(row.ord), row]));
  // A paper missing here was deleted after the lists were read: the caller answers from the word texts.
  const rows = page.map((ord) => byOrd.get(ord));
  if (rows.some((row) => row === undefined)) throw new StalePostingsError('paperlist: a paper of the page is gone');
  return { count, rows: rows as R[], matches: matches.ords };
}

/** The terms' lists and the papers matching the query's terms and substring filters ({@link postingsMatchable}). */
async function matchesOf(context: PostingsContext, cache: CatalogueCache, query: Pick<PaperQuery, 'terms' | 'filters'>, version: string) {
  const needles = substringFilters(query)!;
  const { authors } = query.filters;
  const [terms, filtered, passing, byAuthor] = await Promise.all([
    Promise.all(query.terms.map((term) => termPostings(context, cache, term.words[0]!, version))),
    Promise.all(needles.map(({ field, needle }) => substringMatches(context, cache, field, needle, version))),
    hasFactFilters(query.filters) ? factFiltered(context, cache, query.filters, version) : null,
    authors === undefined ? null : authorFiltered(context, cache, authors, version),
  ]);
  // The filters' sets come after the terms: scoring reads the terms' positions only.
  const sets: { ords: Int32Array }[] = [...terms, ...filtered.map((ords) => ({ ords }))];
  if (passing !== null) sets.push({ ords: passing });
  if (byAuthor !== null) sets.push({ ords: byAuthor });
  return { terms, matches: intersect(sets) };
}

/** The papers `author=` finds (see author-filter.ts), cached per version. */
function authorFiltered(context: PostingsContext, cache: CatalogueCache, alternatives: string[][], version: string): Promise<Int32Array> {
  const shared = { ...context, signal: undefined };
  return cachedFilter(context, cache, `authors:${JSON.stringify(alternatives)}`, () =>
    authorFilterOrdinals(
      alternatives,
      (word) => termPostings(shared, cache, word, version),
      () => facetFactsOf(shared, cache, 'author', version),
    ),
  );
}

/** The papers passing the query's fact filters (see fact-filters.ts), cached per version. */
function factFiltered(context: PostingsContext, cache: CatalogueCache, filters: PaperFilters, version: string): Promise<Int32Array> {
  return cachedFilter(context, cache, `facts:${factFiltersKey(filters)}`, () =>
    filterOrdinals(filters, (column) => facetFactsOf({ ...context, signal: undefined }, cache, column, version)),
  );
}

/** A filter's papers, computed once per catalogue version by whichever request asks first (shared, so not aborted with it). */
function cachedFilter(context: PostingsContext, cache: CatalogueCache, key: string, compute: () => Promise<Int32Array>): Promise<Int32Array> {
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
export async function matchingOrdinals(context: PostingsContext, cache: CatalogueCache, query: Pick<PaperQuery, 'terms' | 'filters'>, version: string): Promise<Int32Array | null> {
  if (query.terms.length === 0 && substringFilters(query)!.length === 0 && !hasFactFilters(query.filters) && query.filters.authors === undefined) return null;
  return (await matchesOf(context, cache, query, version)).matches.ords;
}

/** One column's facet facts, read once per catalogue version and shared. */
export function facetFactsOf(context: PostingsContext, cache: CatalogueCache, field: FactColumn, version: string): Promise<FacetFacts> {
  let entry = cache.facetFacts.get(field);
  if (entry === undefined) {
    const reading = readFacetFacts(context.names, field, version, context.shared);
    entry = reading;
    cache.facetFacts.set(field, reading);
    reading.catch(() => {
      if (cache.facetFacts.get(field) === reading) cache.facetFacts.delete(field);
    });
  }
  return untilAborted(entry, context.signal);
}

/** Reads (or finds cached) a term's merged lists; the read is shared and outlives the request that started it. */
function termPostings(context: PostingsContext, cache: CatalogueCache, prefix: string, version: string): Promise<TermPostings> {
  const { postings } = cache;
  let entry = postings.get(prefix);
  if (entry !== undefined) {
    // Most recently used last.
    postings.delete(prefix);
    postings.set(prefix, entry);
    return untilAborted(entry, context.signal);
  }
  entry = readTermPostings(context.names, prefix, version, context.shared, context.merge);
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
 * memory: recheck-texts.ts). Shared and cached per version.
 */
function substringMatches(context: PostingsContext, cache: CatalogueCache, field: 'title' | 'abstract', needle: string, version: string): Promise<Int32Array> {
  const key = `${field}:${needle}`;
  let entry = cache.substrings.get(key);
  if (entry === undefined) {
    const shared = { ...context, signal: undefined };
    entry = (async () => {
      const [dictionary, facts, rechecked] = await Promise.all([dictionaryOf(shared, cache, version), paperFacts(shared, cache, version), recheckTextsOf(shared, cache, field, version)]);
      const candidates = await readSubstringPostings(context.names, dictionary.containing(needle), version, context.shared, context.merge);
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

/** The words that have posting lists, read once per version and shared. */
function dictionaryOf(context: PostingsContext, cache: CatalogueCache, version: string): Promise<DictionaryWords> {
  if (cache.dictionary === undefined) {
    const reading = readDictionaryWords(context.names, version, context.shared);
    cache.dictionary = reading;
    reading.catch(() => {
      if (cache.dictionary === reading) cache.dictionary = undefined;
    });
  }
  return untilAborted(cache.dictionary, context.signal);
}

/** The `field` texts of the papers flagged for a recheck, read once per version and shared. */
function recheckTextsOf(context: PostingsContext, cache: CatalogueCache, field: 'title' | 'abstract', version: string): Promise<RecheckTexts> {
  let entry = cache.rechecks.get(field);
  if (entry === undefined) {
    const reading = (async () => {
      const { flags } = await paperFacts(context, cache, version);
      const flag = field === 'title' ? RECHECK_TITLE : RECHECK_ABSTRACT;
      const flagged: number[] = [];
      for (let ord = 0; ord < flags.length; ord++) if ((flags[ord]! & flag) !== 0) flagged.push(ord);
      return readRecheckTexts(context.names, field, Int32Array.from(flagged), version, context.shared);
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
export function warmCatalogue(context: PostingsContext, cache: CatalogueCache, version: string, fresh: { postings: boolean; facets: boolean }): void {
  const background = { ...context, signal: undefined };
  const reads: Promise<unknown>[] = [];
  if (fresh.postings) {
    reads.push(paperFacts(background, cache, version), dictionaryOf(background, cache, version));
    for (const field of ['title', 'abstract'] as const) reads.push(recheckTextsOf(background, cache, field, version));
  }
  if (fresh.facets) for (const field of FACT_COLUMNS) reads.push(facetFactsOf(background, cache, field, version));
  for (const read of reads) read.catch(() => {});
}

function paperFacts(context: PostingsContext, cache: CatalogueCache, version: string): Promise<PaperFacts> {
  if (cache.facts === undefined) {
    const reading = readFacts(context.names, version, context.shared);
    cache.facts = reading;
    reading.catch(() => {
      if (cache.facts === reading) cache.facts = undefined;
    });
  }
  return untilAborted(cache.facts, context.signal);
}
