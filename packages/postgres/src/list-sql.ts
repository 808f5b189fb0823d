import { ORDER_COLUMNS, seekCondition } from './cursor-sql.js';
import { MAX_FACET_LIMIT, prefixWeightOf, RELEVANCE, type FieldLengths, type OrderKey, type PaperFilters, type PaperQuery, type SearchTerm } from '@paperlist/core';
import { PAPER_COLUMNS, type SchemaNames } from './schema.js';
import type { TermPattern } from './text-columns.js';
import { extensionConditions, hasExtensionFilters, VENUE_KEY_FUNCTION } from './filters-sql.js';
import { annotationTables } from './annotations-sql.js';
import type { FacetField } from '@paperlist/core';

/** The stored texts a term is looked for in (see `fieldText`). */
const TEXT_COLUMNS = { title: 'title_words', authors: 'authors_words', abstract: 'abstract_words' } as const;

/** Most dictionary words a term's prefix is looked up by through the GIN index; more, and the stored text is searched. */
export const MAX_PREFIX_IDS = 64;

/** A search term with its dictionary words looked up. */
export interface ResolvedTerm {
  term: SearchTerm;
  pattern: TermPattern;
  /** Dictionary ids of the term's whole words (all but the last); `null` when one is not in the dictionary. */
  wholeIds: number[] | null;
  /** Dictionary ids of the words that start with the term's last word. */
  prefixIds: number[];
}

/** Whether a term can match any paper's words (it may still match an arxiv_id). */
export function wordsCanMatch(term: ResolvedTerm): boolean {
  return term.wholeIds !== null && term.prefixIds.length > 0;
}

/** What relevance needs besides the papers' own columns: the catalogue's size, mean field lengths and each term's idf. */
export interface Scoring {
  averages: FieldLengths;
  idfs: readonly number[];
}

/** A statement and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A float8 literal that PostgreSQL reads back as exactly this double. */
function float(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`paperlist: not a finite number: ${value}`);
  return `'${String(value)}'::float8`;
}



/** `'{1,2,3}'` */
function intArray(ids: readonly number[]): string {
  return `{${ids.join(',')}}`;
}

/**
 * The condition of one term: its words among the paper's words (GIN on `word_ids`), the
 * phrase itself in one stored field when it has several words, or `arxiv_id` exactly for an
 * arXiv-id-shaped term.
 */
function termCondition(resolved: ResolvedTerm, params: Params): string {
  const parts: string[] = [];
  if (wordsCanMatch(resolved)) {
    const words: string[] = [];
    if (resolved.wholeIds!.length > 0) words.push(`word_ids @> ${params.add(intArray(resolved.wholeIds!))}::int4[]`);
    // `&&` compares every id of a paper with every id of the array: with a short prefix that
    // stands for hundreds of words, reading the stored text is cheaper, and as exact.
    const broad = resolved.prefixIds.length > MAX_PREFIX_IDS;
    if (!broad) words.push(`word_ids && ${params.add(intArray(resolved.prefixIds))}::int4[]`);
    if (resolved.pattern.needsRecheck || broad) {
      const pattern = params.add(resolved.pattern.any);
      words.push(`(${Object.values(TEXT_COLUMNS).map((column) => `strpos(${column}, ${pattern}) > 0`).join(' OR ')})`);
    }
    parts.push(words.join(' AND '));
  }
  if (resolved.term.arxivId !== null) parts.push(`arxiv_id = ${params.add(resolved.term.arxivId)}`);
  if (parts.length === 0) return 'false';
  return parts.length === 1 ? parts[0]! : `((${parts[0]}) OR ${parts[1]})`;
}

/** The escape of `\`, `%` and `_` in a LIKE pattern (with `ESCAPE '\'`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** The WHERE clause of a query (without `WHERE`; `''` when every paper matches). */
function whereClause(names: SchemaNames, terms: readonly ResolvedTerm[], filters: PaperFilters, params: Params): string {
  const parts = terms.map((term) => termCondition(term, params));
  if (filters.arxivId !== undefined) parts.push(`arxiv_id = ${params.add(filters.arxivId)}`);
  const contains = (column: string, lower: string, value: string) =>
    `coalesce(${lower}, lower(${column} COLLATE "C")) LIKE ${params.add(`%${escapeLike(value.toLowerCase())}%`)} ESCAPE '\\'`;
  if (filters.titleContains !== undefined) parts.push(contains('title', 'title_lower', filters.titleContains));
  if (filters.abstractContains !== undefined) parts.push(contains('abstract', 'abstract_lower', filters.abstractContains));
  parts.push(...extensionConditions(names, filters, (value) => params.add(value)));
  return parts.join(' AND ');
}

function where(sql: string): string {
  return sql === '' ? '' : ` WHERE ${sql}`;
}

/** Whether a query has any condition at all (else every paper matches). */
export function hasConditions(query: PaperQuery): boolean {
  const { filters } = query;
  return (
    query.terms.length > 0 ||
    filters.arxivId !== undefined ||
    filters.titleContains !== undefined ||
    filters.abstractContains !== undefined ||
    hasExtensionFilters(filters)
  );
}

/** `ORDER BY` items for ordering keys, with PostgreSQL's default null placement (the core's). */
function orderItems(keys: readonly OrderKey[], prefix = ''): string {
  return keys.map((key) => `${prefix}${ORDER_COLUMNS[key.field]}${key.descending ? ' DESC' : ''}`).join(', ');
}

/** `id` and the columns of the keys. */
function orderColumns(keys: readonly OrderKey[]): string {
  return [...new Set(['id', ...keys.map((key) => ORDER_COLUMNS[key.field])])].join(', ');
}

/** The SELECT list of the 13 fields (`published` is text already). */
export const SELECT_PAPER = PAPER_COLUMNS.join(', ');
const SELECT_PAPER_P = PAPER_COLUMNS.map((column) => `p.${column}`).join(', ');

/**
 * The statement of one page. The window is found over the ordering columns (and, for
 * relevance, the scores) alone; the 13 fields are then fetched for those rows only.
 */
export function pageStatement(
  names: SchemaNames,
  query: PaperQuery,
  terms: readonly ResolvedTerm[],
  scoring: Scoring | null,
  plan: 'walk' | 'sort' = 'walk',
): Statement {
  const params = new Params();
  let condition = where(whereClause(names, terms, query.filters, params));
  const window = () => `LIMIT ${params.add(query.limit)} OFFSET ${params.add(query.offset)}`;
  // A term of weight 0 (one matching over 4/5 of the catalogue: `the`, `"of the"`) adds exactly
  // +0 to every score, so it is neither counted nor scored; when no term weighs anything, every
  // score is 0 and relevance is the `then` order, walked from an index like any other ordering.
  const weighed = scoring === null ? [] : terms.map((term, i) => ({ term, idf: scoring.idfs[i]! })).filter(({ idf }) => idf !== 0);
  if (query.ordering.kind === 'relevance' && scoring !== null && weighed.length > 0) {
    const then = query.ordering.then;
    const counts = weighed.flatMap(({ term }, i) => occurrenceColumns(term, i, params));
    const columns = new Set([...orderColumns(then).split(', '), 'title_len', 'authors_len', 'abstract_len']);
    if (weighed.some(({ term }) => term.term.arxivId !== null)) columns.add('arxiv_id');
    // Each stored text is read (and decompressed) once per row, then searched as often as needed.
    const texts = Object.entries(TEXT_COLUMNS).map(([field, column]) => `${column} || '' AS ${field}_text`);
    const fetched = `SELECT ${[...columns, ...texts].join(', ')} FROM ${names.papers}${condition} OFFSET 0`;
    const inner = `SELECT ${[...columns, ...counts].join(', ')} FROM (${fetched}) f OFFSET 0`;
    const weights = { averages: scoring.averages, idfs: weighed.map(({ idf }) => idf) };
    const scored = `SELECT ${orderColumns(then)}, ${scoreExpression(weighed.map(({ term }) => term), weights, params)} AS score
      FROM (${inner}) c ORDER BY score DESC, ${orderItems(then)} ${window()}`;
    return {
      text: `SELECT ${SELECT_PAPER_P} FROM (${scored}) w JOIN ${names.papers} p USING (id) ORDER BY w.score DESC, ${orderItems(then, 'w.')}`,
      params: params.values,
    };
  }
  const keys = query.ordering.kind === 'relevance' ? query.ordering.then : query.ordering.keys;
  if (query.after !== undefined && query.ordering.kind === 'fields') {
    // A cursor walk's page: the matches after the position (the count is not affected).
    const seek = seekCondition(keys, query.after, (value) => params.add(value));
    condition = condition === '' ? ` WHERE ${seek}` : `${condition} AND ${seek}`;
  }
  // `walk`: let the planner walk an ordering index and test each paper (best when many match);
  // `sort`: find every match first (the GIN index), then sort them (best when few match). The
  // source chooses from the exact count, which the planner's estimate of a search is not.
  const matches =
    plan === 'sort' && condition !== ''
      ? `(SELECT ${orderColumns(keys)} FROM ${names.papers}${condition} OFFSET 0) m`
      : `${names.papers}${condition}`;
  const inner = `SELECT ${orderColumns(keys)} FROM ${matches} ORDER BY ${orderItems(keys)} ${window()}`;
  return {
    text: `SELECT ${SELECT_PAPER_P} FROM (${inner}) w JOIN ${names.papers} p USING (id) ORDER BY ${orderItems(keys, 'w.')}`,
    params: params.values,
  };
}

/** The expression of each facet's value (see the core's `facetValue`). */
function facetExpression(names: SchemaNames, field: FacetField): string {
  if (field === 'year') return 'substr(published, 1, 4)';
  if (field === 'venue') return `${names.quoted}.${VENUE_KEY_FUNCTION}(proceeding)`;
  if (field === 'proceeding') return 'proceeding';
  throw new Error(`paperlist: the ${field} facet is counted from its own table`);
}

/** The statement counting the matching papers by one facet's values (the `NULL` value included). */
export function facetStatement(names: SchemaNames, query: PaperQuery, terms: readonly ResolvedTerm[], field: FacetField): Statement {
  const params = new Params();
  const condition = where(whereClause(names, terms, query.filters, params));
  if (field === 'author') {
    // A paper counts once under each of its distinct names; only the best `facetLimit` names
    // (count descending, then name by code points) and the papers without a name are answered.
    const limit = query.facetLimit ?? MAX_FACET_LIMIT;
    return {
      text: `(SELECT a.name AS value, count(*)::float8 AS count
          FROM ${names.papers} p CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.authors) AS name) a${condition}
          GROUP BY 1 ORDER BY 2 DESC, a.name COLLATE "C" LIMIT ${params.add(limit)})
        UNION ALL
        SELECT NULL, count(*)::float8 FROM ${names.papers} p${condition === '' ? ' WHERE' : `${condition} AND`} cardinality(p.authors) = 0`,
      params: params.values,
    };
  }
  if (field === 'task' || field === 'method') {
    // A paper counts once under each of its slugs (stored once per paper), and in NULL when it has none.
    const table = annotationTables(names)[field === 'task' ? 'tasks' : 'methods'];
    const slug = field === 'task' ? 'task_slug' : 'method_slug';
    return {
      text: `SELECT a.${slug} AS value, count(*)::float8 AS count FROM ${names.papers} p JOIN ${table} a ON a.paper_id = p.id${condition} GROUP BY 1
        UNION ALL
        SELECT NULL, count(*)::float8 FROM ${names.papers} p${condition === '' ? ' WHERE' : `${condition} AND`} NOT EXISTS (SELECT 1 FROM ${table} a WHERE a.paper_id = p.id)`,
      params: params.values,
    };
  }
  return {
    text: `SELECT ${facetExpression(names, field)} AS value, count(*)::float8 AS count FROM ${names.papers}${condition} GROUP BY 1`,
    params: params.values,
  };
}

/** The statement counting the papers that match a query. */
export function countStatement(names: SchemaNames, query: PaperQuery, terms: readonly ResolvedTerm[]): Statement {
  const params = new Params();
  const condition = where(whereClause(names, terms, query.filters, params));
  return { text: `SELECT count(*)::float8 AS count FROM ${names.papers}${condition}`, params: params.values };
}

/** Counts at most `cap` matching papers. */
export function cappedCountStatement(names: SchemaNames, query: PaperQuery, terms: readonly ResolvedTerm[], cap: number): Statement {
  const params = new Params();
  const condition = where(whereClause(names, terms, query.filters, params));
  return {
    text: `SELECT count(*)::float8 AS count FROM (SELECT 1 FROM ${names.papers}${condition} LIMIT ${params.add(cap)}) capped`,
    params: params.values,
  };
}

/** The planner's estimate of the matching papers (`EXPLAIN`: nothing is run). */
export function estimateStatement(names: SchemaNames, query: PaperQuery, terms: readonly ResolvedTerm[]): Statement {
  const params = new Params();
  const condition = where(whereClause(names, terms, query.filters, params));
  return { text: `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${names.papers}${condition}`, params: params.values };
}

/** The number of papers one term matches in the whole catalogue (its document frequency, for idf). */
export function documentFrequencyStatement(names: SchemaNames, term: ResolvedTerm): Statement {
  const params = new Params();
  const condition = termCondition(term, params);
  return { text: `SELECT count(*)::float8 AS count FROM ${names.papers} WHERE ${condition}`, params: params.values };
}

/**
 * Occurrences of term `i` in each stored field, whole and in all (whole or prefix):
 * columns `t{i}_{field}_any` and `t{i}_{field}_whole`.
 */
function occurrenceColumns(resolved: ResolvedTerm, i: number, params: Params): string[] {
  const { pattern } = resolved;
  const any = params.add(pattern.any);
  const whole = params.add(pattern.whole);
  const columns: string[] = [];
  for (const field of Object.keys(TEXT_COLUMNS)) {
    const column = `${field}_text`;
    columns.push(`${occurrences(column, pattern, any, 'any', params)} AS t${i}_${field}_any`);
    columns.push(`${occurrences(column, pattern, whole, 'whole', params)} AS t${i}_${field}_whole`);
  }
  return columns;
}

/**
 * How often `patternParam` occurs in a stored field. Occurrences never share characters
 * (see `fieldText`) unless the term repeats itself, so `replace` counts them; a term that can
 * overlap itself is counted with a look-ahead regular expression instead.
 */
function occurrences(column: string, pattern: TermPattern, patternParam: string, kind: 'any' | 'whole', params: Params): string {
  const text = kind === 'any' ? pattern.any : pattern.whole;
  if (pattern.overlapping) {
    // Words are letters and digits only: nothing in the pattern is special to a regular expression.
    // The look-ahead consumes only the leading space, so overlapping occurrences all count.
    const regex = params.add(` (?=${text.slice(1)})`);
    return `(SELECT count(*) FROM regexp_matches(${column}, ${regex}, 'g'))::int4`;
  }
  // Lengths in bytes: octet_length is O(1), and every occurrence removes the same bytes.
  const length = Buffer.byteLength(text);
  return `CASE WHEN strpos(${column}, ${patternParam}) = 0 THEN 0 ELSE (octet_length(${column}) - octet_length(replace(${column}, ${patternParam}, ''))) / ${length} END`;
}

/**
 * The core's relevance (search/relevance.ts) in SQL, operation for operation, so that the
 * doubles are the same: BM25 per field, fields weighted, prefix occurrences at half weight
 * (none for a last word of one or two characters),
 * the arXiv id bonus, and the terms' scores added in query order. The constants, the mean
 * field lengths and each term's idf are computed in JavaScript exactly as the core does and
 * written as float8 literals (which PostgreSQL reads back as the same doubles).
 */
function scoreExpression(terms: readonly ResolvedTerm[], scoring: Scoring, params: Params): string {
  const k1 = float(RELEVANCE.k1);
  const k1Plus1 = float(RELEVANCE.k1 + 1);
  const oneMinusB = float(1 - RELEVANCE.b);
  const b = float(RELEVANCE.b);
  const average = (value: number) => float(value > 0 ? value : 1);
  const fieldScore = (i: number, field: keyof typeof TEXT_COLUMNS, length: string, mean: number, prefixWeight: string) => {
    const anyCount = `t${i}_${field}_any`;
    const wholeCount = `t${i}_${field}_whole`;
    const tf = `(${wholeCount}::float8 + ${prefixWeight} * (${anyCount} - ${wholeCount})::float8)`;
    const norm = `(${oneMinusB} + (${b} * ${length}::float8) / ${average(mean)})`;
    return `(CASE WHEN ${anyCount} = 0 THEN 0::float8 ELSE (${tf} * ${k1Plus1}) / (${tf} + ${k1} * ${norm}) END)`;
  };
  const { averages, idfs } = scoring;
  const termScores = terms.map((resolved, i) => {
    // A short last word's prefix occurrences do not score (see the core's prefixWeightOf).
    const weight = float(prefixWeightOf(resolved.term));
    const fields =
      `((${float(RELEVANCE.titleWeight)} * ${fieldScore(i, 'title', 'title_len', averages.title, weight)}` +
      ` + ${float(RELEVANCE.abstractWeight)} * ${fieldScore(i, 'abstract', 'abstract_len', averages.abstract, weight)})` +
      ` + ${float(RELEVANCE.authorsWeight)} * ${fieldScore(i, 'authors', 'authors_len', averages.authors, weight)})`;
    const arxivId = resolved.term.arxivId;
    const bonus =
      arxivId === null
        ? ''
        : ` + (CASE WHEN arxiv_id = ${params.add(arxivId)} THEN ${float(RELEVANCE.arxivIdWeight)} ELSE 0::float8 END)`;
    return `(${float(idfs[i]!)} * (${fields}${bonus}))`;
  });
  return termScores.reduce((sum, score) => `(${sum} + ${score})`);
}

/**
 * The papers of the given ordinals, with their `ord` (a page chosen from the posting lists; the
 * caller puts them in order). The text depends on the schema only: it is prepared once per connection.
 */
export function ordinalsStatement(names: SchemaNames, ords: readonly number[]): Statement {
  return { text: `SELECT ${SELECT_PAPER}, ord FROM ${names.papers} WHERE ord = ANY($1::int4[])`, params: [intArray(ords)] };
}
