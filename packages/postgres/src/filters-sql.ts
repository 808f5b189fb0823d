import { textWords, type PaperFilters } from '@paperlist/core';
import { arrayLiteral } from './copy-format.js';
import type { SchemaNames } from './schema.js';
import { dictionaryWord, fieldText, prefixRange } from './text-columns.js';
import { isUnstorable } from './unstorable-text.js';
import { annotationConditions } from './annotations-sql.js';

/** Adds a statement parameter and answers its placeholder (`$3`). */
export type AddParam = (value: unknown) => string;

/** The name of the SQL function deriving a venue key from a proceeding (see the migration). */
export const VENUE_KEY_FUNCTION = 'paperlist_venue_key';

/**
 * The core's `venueKey` in SQL: the trailing date (groups of space, `-` or `_` followed by
 * digits) removed, ASCII letters lower-cased (`translate`, so no locale is involved), `NULL`
 * when nothing is left. IMMUTABLE: the venue index is built on it.
 */
export function venueKeyFunction(names: SchemaNames): string {
  return `CREATE FUNCTION ${names.quoted}.${VENUE_KEY_FUNCTION}(proceeding text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $fn$ SELECT nullif(translate(regexp_replace(proceeding, '([ _-]+[0-9]+)+$', ''),
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), '') $fn$`;
}

/** Whether the filters hold any of the extension filters (the core's definition). */
export { hasExtensionFilters } from '@paperlist/core';

/** The part of a count's cache key for the extension filters. */
export function extensionFiltersKey(filters: PaperFilters): string {
  return JSON.stringify([
    filters.published ?? null,
    filters.authors ?? null,
    filters.authorNames ?? null,
    filters.proceedings ?? null,
    filters.venues ?? null,
    filters.arxivIds ?? null,
    filters.ids ?? null,
    filters.tasks ?? null,
    filters.methods ?? null,
  ]);
}

/**
 * The conditions of the extension filters, each served by an index: ids by the primary key,
 * arXiv ids by `papers_arxiv_id`, the date range by
 * `papers_published` (`published` is `YYYY-MM-DD` text, compared `COLLATE "C"`), proceedings
 * by `papers_proceeding`, venues by the expression index `papers_venue`, and each author
 * alternative by the GIN index on `word_ids` (its words among the paper's), then checked
 * exactly in the stored author names (`authors_words`: each name's words between spaces,
 * names joined by `|`).
 */
export function extensionConditions(names: SchemaNames, filters: PaperFilters, add: AddParam): string[] {
  const parts: string[] = [];
  const { published } = filters;
  // A value PostgreSQL cannot hold (U+0000, a lone surrogate) is in no stored paper: such a
  // proceeding, venue or author alternative matches nothing, as on the memory source, and is
  // left out rather than sent (the server would fail the statement). A filter left with no
  // value matches nothing.
  const storable = (values: readonly string[] | undefined) => values?.filter((value) => !isUnstorable(value));
  const proceedings = storable(filters.proceedings);
  const venues = storable(filters.venues);
  const authors = filters.authors?.filter((words) => !words.some(isUnstorable));
  const authorNames = storable(filters.authorNames);
  const ids = storable(filters.ids);
  const arxivIds = storable(filters.arxivIds);
  if ([proceedings, venues, authors, authorNames, ids, arxivIds].some((values) => values !== undefined && values.length === 0)) return ['FALSE'];
  // Batch lookups (at most 100 values each) through the primary key and the arXiv id index.
  if (ids !== undefined) parts.push(`id = ANY(${add(arrayLiteral(ids))}::text[])`);
  if (arxivIds !== undefined) parts.push(`arxiv_id = ANY(${add(arrayLiteral(arxivIds))}::text[])`);
  if (published !== undefined) {
    const range = ['published IS NOT NULL'];
    if (published.from !== undefined) range.push(`published >= ${add(published.from)}`);
    if (published.to !== undefined) range.push(`published <= ${add(published.to)}`);
    parts.push(range.length > 1 ? range.slice(1).join(' AND ') : range[0]!);
  }
  if (proceedings !== undefined) parts.push(`proceeding = ANY(${add(arrayLiteral(proceedings))}::text[])`);
  if (venues !== undefined) parts.push(`${names.quoted}.${VENUE_KEY_FUNCTION}(proceeding) = ANY(${add(arrayLiteral(venues))}::text[])`);
  if (authors !== undefined) {
    const alternatives = authors.map((words) => authorCondition(names, words, add));
    parts.push(alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`);
  }
  if (authorNames !== undefined) {
    const alternatives = authorNames.map((name) => authorNameCondition(names, name, add));
    parts.push(alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`);
  }
  const annotations = annotationConditions(names, filters.tasks, filters.methods, (value) => add(arrayLiteral(value as string[])));
  if (annotations.includes('FALSE')) return ['FALSE'];
  parts.push(...annotations);
  return parts;
}

/**
 * One `author_name` value: candidates from the word index (papers holding every word of the
 * name), then the name itself among the paper's `authors`, exactly.
 */
function authorNameCondition(names: SchemaNames, name: string, add: AddParam): string {
  const exact = `${add(name)} = ANY(authors)`;
  const words = textWords(name);
  if (words.length === 0) return exact;
  const ids = `ARRAY(SELECT d.id FROM ${names.words} d WHERE d.word = ANY(${add(arrayLiteral([...new Set(words)].map(dictionaryWord)))}::text[]))`;
  return `(word_ids @> ${ids} AND ${exact})`;
}

/** One `author` alternative: candidates from the word index, then one stored name holding every word. */
function authorCondition(names: SchemaNames, words: readonly string[], add: AddParam): string {
  const whole = words.slice(0, -1);
  const last = words[words.length - 1]!;
  const checks = [...whole.map((word) => ` ${word} `), fieldText([last]).trimEnd()].map((pattern) => `strpos(a.name, ${add(pattern)}) > 0`);
  const exact = `EXISTS (SELECT 1 FROM unnest(string_to_array(authors_words, '|')) AS a(name) WHERE ${checks.join(' AND ')})`;
  // The whole words' ids narrow the candidates through the GIN index; a word missing from the
  // dictionary only drops out of the array (the exact check still refuses the paper). A lone
  // prefix is looked up as a range of the dictionary instead.
  let candidates: string;
  if (whole.length > 0) {
    const ids = `ARRAY(SELECT d.id FROM ${names.words} d WHERE d.word = ANY(${add(arrayLiteral(whole.map(dictionaryWord)))}::text[]))`;
    candidates = `word_ids @> ${ids}`;
  } else {
    const { lower, upper } = prefixRange(dictionaryWord(last));
    const range = upper === null ? `d.word >= ${add(lower)}` : `d.word >= ${add(lower)} AND d.word < ${add(upper)}`;
    candidates = `word_ids && ARRAY(SELECT d.id FROM ${names.words} d WHERE ${range})`;
  }
  return `(${candidates} AND ${exact})`;
}
