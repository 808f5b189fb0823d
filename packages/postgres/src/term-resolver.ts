import type { PaperFilters, SearchTerm } from '@paperlist/core';
import { arrayLiteral } from './copy-format.js';
import type { ResolvedTerm } from './list-sql.js';
import type { SchemaNames } from './schema.js';
import { dictionaryWord, prefixRange, termPattern } from './text-columns.js';
import { extensionFiltersKey } from './filters-sql.js';

/** Runs one read statement (the source's QueryRunner, with its timeout and the request's signal). */
export type RunRows = <R>(text: string, params: unknown[]) => Promise<R[]>;

const MAX_CACHED = 20_000;

/**
 * What the source remembers about one version of the catalogue for its SQL statements:
 * dictionary look-ups and counts (of a query's matches, and of a term's matches: its document
 * frequency). Exact as long as the version is the same; a new version starts an empty cache.
 * (What the posting lists answer is kept per generation of the lists: lists-cache.ts.)
 */
export class CatalogueCache {
  readonly words = new Map<string, number | null>();
  readonly prefixes = new Map<string, number[]>();
  /** Counts by `countKey`, as promises so that one count running is shared. */
  readonly counts = new Map<string, Promise<number>>();

  constructor(readonly version: string) {}

  /** Keeps the cache bounded: forgets everything when one of its maps grows too large. */
  trim(): void {
    for (const map of [this.words, this.prefixes, this.counts]) if (map.size > MAX_CACHED) map.clear();
  }
}

/** The key of a count: the terms and filters it counts the matches of. */
export function countKey(terms: readonly SearchTerm[], filters: PaperFilters): string {
  return JSON.stringify([terms.map((term) => [term.words, term.arxivId]), filters.arxivId, filters.titleContains, filters.abstractContains]) + extensionFiltersKey(filters);
}

/**
 * Looks the terms' words up in the word dictionary: the id of each whole word, and the ids of
 * every word starting with each term's last word. One statement for everything not cached.
 */
export async function resolveTerms(
  names: SchemaNames,
  terms: readonly SearchTerm[],
  cache: CatalogueCache,
  run: RunRows,
): Promise<ResolvedTerm[]> {
  const wholeWords = new Set<string>();
  const prefixes = new Set<string>();
  for (const term of terms) {
    const { words } = term;
    for (let i = 0; i < words.length - 1; i++) {
      const word = dictionaryWord(words[i]!);
      if (!cache.words.has(word)) wholeWords.add(word);
    }
    const last = dictionaryWord(words[words.length - 1]!);
    if (!cache.prefixes.has(last)) prefixes.add(last);
  }
  if (wholeWords.size > 0 || prefixes.size > 0) {
    const lowers = [...prefixes];
    const uppers = lowers.map((prefix) => prefixRange(prefix).upper ?? `${prefix}\u{10FFFF}\u{10FFFF}`);
    const rows = await run<{ kind: 'w' | 'p'; key: string; ids: number[] | string }>(
      `SELECT 'w' AS kind, u.key, ARRAY(SELECT d.id FROM ${names.words} d WHERE d.word = u.key) AS ids
        FROM unnest($1::text[]) u(key)
      UNION ALL
      SELECT 'p', u.lower, ARRAY(SELECT d.id FROM ${names.words} d WHERE d.word >= u.lower AND d.word < u.upper ORDER BY d.id)
        FROM unnest($2::text[], $3::text[]) u(lower, upper)`,
      [arrayLiteral([...wholeWords]), arrayLiteral(lowers), arrayLiteral(uppers)],
    );
    for (const row of rows) {
      const ids = parseIntArray(row.ids);
      if (row.kind === 'w') cache.words.set(row.key, ids[0] ?? null);
      else cache.prefixes.set(row.key, ids);
    }
    cache.trim();
  }
  return terms.map((term) => {
    const { words } = term;
    const wholeIds: number[] = [];
    let known = true;
    for (let i = 0; i < words.length - 1; i++) {
      const id = cache.words.get(dictionaryWord(words[i]!));
      if (id === null || id === undefined) known = false;
      else if (!wholeIds.includes(id)) wholeIds.push(id);
    }
    return {
      term,
      pattern: termPattern(term),
      wholeIds: known ? wholeIds : null,
      prefixIds: cache.prefixes.get(dictionaryWord(words[words.length - 1]!)) ?? [],
    };
  });
}

/** An int4[] as a driver hands it back: already an array (pg, PGlite), or its text form. */
export function parseIntArray(value: number[] | string | null): number[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value.map(Number);
  const inner = value.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map(Number);
}
