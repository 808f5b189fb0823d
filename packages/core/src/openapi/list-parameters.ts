import { DEFAULT_ORDER, ORDER_FIELDS, formatOrderKeys } from '../ordering/parse-ordering.js';
import { LIST_QUERY_PARAMETERS, type ListQueryParameter } from '../query/parse-list-query.js';
import { FORMAT_VALUES } from '../http/negotiate.js';
import { MAX_QUERY_LENGTH, MAX_QUERY_TERMS } from '../text/parse-search.js';
import type { JsonObject } from './json-schema.js';
import { PAPER_FIELDS } from '../paper.js';
import { FACET_FIELDS } from '../facets/facet-types.js';
import { DEFAULT_FACET_LIMIT, MAX_FACET_LIMIT } from '../facets/facet-params.js';
import { DEFAULT_CROP, MAX_CROP } from '../highlight/highlight-params.js';
import { EXTENSION_PARAMETERS, MAX_AUTHOR_ALTERNATIVES, MAX_AUTHOR_NAMES, MAX_AUTHOR_WORDS, MAX_LOOKUP_VALUES, MAX_ANNOTATION_VALUES, MAX_VENUE_VALUES, type ExtensionParameter } from '../filters/extension-params.js';

/** Page sizes the document states. */
export interface PageSizes {
  pageSize: number;
  maxPageSize: number;
}

const code = (text: string) => `\`${text}\``;

/**
 * The OpenAPI description of each list parameter, keyed by the names the parser reads
 * ({@link LIST_QUERY_PARAMETERS}); limits and fields come from the parser's own constants.
 */
function describeParameters(sizes: PageSizes): Record<ListQueryParameter, { description: string; schema: JsonObject }> {
  const fields = ORDER_FIELDS.map(code).join(', ');
  return {
    q: {
      description:
        `Search. Split on whitespace and commas; "double quotes" group a phrase. Every term must match (AND) in the title, ` +
        `abstract or authors, case- and accent-insensitively, as the start of a word. At most ${MAX_QUERY_LENGTH} characters ` +
        `and ${MAX_QUERY_TERMS} terms (else 400). Without ${code('ordering')}, results are by relevance.`,
      schema: { type: 'string', maxLength: MAX_QUERY_LENGTH, examples: ['attention transformer', '"language model" gpt-4', '1706.03762'] },
    },
    ordering: {
      description:
        `Comma-separated fields from ${fields}, each optionally prefixed with ${code('-')} for descending. Unknown fields ` +
        `are ignored; nothing valid left means the default (relevance with ${code('q')}, else ` +
        `${code(formatOrderKeys(DEFAULT_ORDER))}). ${code('id')} ascending is always the last tie-breaker. Nulls sort last ` +
        `ascending and first descending.`,
      schema: {
        type: 'string',
        examples: ORDER_FIELDS.flatMap((field) => [field, `-${field}`]).concat(['-published,title']),
      },
    },
    page: {
      description: `1-based page number, or ${code('last')}. Past the last page, or not a positive integer: 404 "Invalid page.".`,
      schema: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'last' }], default: 1 },
    },
    items_per_page: {
      description:
        `Results per page, default ${sizes.pageSize}. Values over ${sizes.maxPageSize} are capped; zero, negative or not ` +
        `a number gives the default.`,
      schema: { type: 'integer', minimum: 1, maximum: sizes.maxPageSize, default: sizes.pageSize },
    },
    arxiv_id: {
      description: 'Only the paper with exactly this arXiv id.',
      schema: { type: 'string', examples: ['1706.03762'] },
    },
    title: { description: 'Only papers whose title contains this, case-insensitively.', schema: { type: 'string' } },
    abstract: { description: 'Only papers whose abstract contains this, case-insensitively.', schema: { type: 'string' } },
  };
}

/** The extension parameters (on unless the handler's `extensions` is false). */
function describeExtensions(): Record<ExtensionParameter, { description: string; schema: JsonObject }> {
  const date = (edge: string) =>
    `Only papers published on or ${edge} this day (inclusive): ${code('YYYY')}, ${code('YYYY-MM')} or ${code('YYYY-MM-DD')}; ` +
    `a partial date stands for its ${edge === 'after' ? 'first' : 'last'} day. Papers without a date never match a date range. ` +
    `Not a real date: 400 ${code('{"' + (edge === 'after' ? 'published_after' : 'published_before') + '":["Enter a valid date."]}')}.`;
  const dateSchema = { type: 'string', pattern: '^\\s*\\d{4}(-\\d{2}(-\\d{2})?)?\\s*$', examples: ['2018', '2020-02', '2019-06-15'] };
  return {
    published_after: { description: date('after'), schema: dateSchema },
    published_before: { description: date('before'), schema: dateSchema },
    year: {
      description:
        `Only papers published in these years: ${code('2020')}, ${code('2016-2020')}, ${code('2010-')} (from 2010 on) or ` +
        `${code('-2015')} (up to 2015). Combined with ${code('published_after')}/${code('published_before')}, all apply. ` +
        `Undated papers never match.`,
      schema: { type: 'string', pattern: '^\\s*(\\d{4}|\\d{4}-|-\\d{4}|\\d{4}-\\d{4})\\s*$', examples: ['2020', '2016-2020', '2010-', '-2015'] },
    },
    author: {
      description:
        `Only papers with an author name holding every word (folded as ${code('q')} is: case- and accent-insensitive), ` +
        `each a whole word except the last, which may be a prefix; in any order. ${code('|')} separates alternatives ` +
        `(at most ${MAX_AUTHOR_ALTERNATIVES}, of at most ${MAX_AUTHOR_WORDS} words each).`,
      schema: { type: 'string', maxLength: MAX_QUERY_LENGTH, examples: ['graham neubig', 'neubig|chris dyer', 'vaswani a'] },
    },
    author_name: {
      description:
        `Only papers with an author name exactly equal to one of these, separated by ${code('|')} (at most ${MAX_AUTHOR_NAMES}): ` +
        `as written, case and spaces included. These are the values of the ${code('author')} facet, so filtering by a bucket ` +
        `finds exactly its count (${code('author')} matches words instead).`,
      schema: { type: 'string', maxLength: MAX_QUERY_LENGTH, examples: ['Graham Neubig', 'Ashish Vaswani|Noam Shazeer'] },
    },
    proceeding: {
      description: `Only papers whose ${code('proceeding')} is exactly one of these values, separated by ${code('|')} (at most ${MAX_VENUE_VALUES}).`,
      schema: { type: 'string', examples: ['acl-2020-7', 'acl-2020-7|naacl-2019-6'] },
    },
    venue: {
      description:
        `Only papers of these venues, separated by ${code('|')}, case-insensitively (ASCII). A paper's venue is its ` +
        `${code('proceeding')} without the trailing date (groups of space, ${code('-')} or ${code('_')} followed by digits), ` +
        `lower-cased: ${code('acl-2020-7')} is ${code('acl')}, ${code('NeurIPS 2018 12')} is ${code('neurips')}. The server's ` +
        `aliases apply (by default ${code('nips')} is ${code('neurips')}).`,
      schema: { type: 'string', examples: ['acl', 'neurips', 'acl|emnlp'] },
    },
    task: {
      description:
        `Only papers with one of these tasks (from the Papers with Code dump), separated by ${code('|')} (at most ` +
        `${MAX_ANNOTATION_VALUES}). A task is matched by its slug: lower-cased, every run of characters other than ASCII ` +
        `letters and digits made one ${code('-')}, none at the ends, so ${code('Image Classification')} and ` +
        `${code('image-classification')} are the same task (the id of ${code('/tasks/{id}/papers/')}).`,
      schema: { type: 'string', examples: ['image-classification', 'image-classification|object-detection'] },
    },
    method: {
      description:
        `Only papers using one of these methods (from the Papers with Code dump), separated by ${code('|')} (at most ` +
        `${MAX_ANNOTATION_VALUES}); matched by slug like ${code('task')} (${code('Batch Normalization')} is ${code('batch-normalization')}).`,
      schema: { type: 'string', examples: ['batch-normalization', 'adam|sgd'] },
    },
    id: {
      description:
        `Only the papers with these ids, separated by ${code('|')} (a batch lookup; at most ${MAX_LOOKUP_VALUES}, else 400). ` +
        `Ids are matched exactly; unknown ids match nothing.`,
      schema: { type: 'string', examples: ['attention-is-all-you-need', 'attention-is-all-you-need|bert-pre-training-of-deep'] },
    },
    count_only: {
      description:
        `${code('1')} (or ${code('true')}, ${code('yes')}, ${code('on')}): answer only the exact ${code('count')}, with ` +
        `${code('results')} empty and ${code('next')}/${code('previous')} null; no paper is fetched and ${code('page')} is not read. ` +
        `Not a boolean: 400. The HTML view ignores it.`,
      schema: { type: 'string', enum: ['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'] },
    },
    cursor: {
      description:
        `A cursor walk instead of page numbers: ${code('cursor=*')} starts one, and ${code('next')} then carries an opaque ` +
        `${code('cursor')} (and no ${code('page')}) until the last page, where it is null; ${code('previous')} is always null. ` +
        `${code('count')} stays the exact count of every match. A walk has no depth limit and no expiry, and survives ` +
        `reloads and writes: a paper that was in the catalogue all along comes exactly once. It needs an explicit ` +
        `${code('ordering')} when ${code('q')} is given (else 400). A cursor that is not one of this ordering's: 404 ` +
        `${code('{"detail":"Invalid cursor"}')}.`,
      schema: { type: 'string', examples: ['*'] },
    },
    facets: {
      description:
        `Comma-separated facets to count over every matching paper (not only the page): ${FACET_FIELDS.map(code).join(', ')}. ` +
        `The answer then has ${code('"facets":{"year":[{"value":"2018","count":575},…]}')} after ${code('results')}: exact counts, ` +
        `by count descending then value; venues merged under the server's aliases. Filtering by a bucket (${code('year=2018')}, ` +
        `${code('venue=acl')}, ${code('proceeding=…')}, ${code('author_name=…')}, ${code('task=…')}) finds exactly its count. ` +
        `A paper counts once under each of its author names, tasks and methods. Unknown facet: 400.`,
      schema: { type: 'string', examples: ['year', 'year,venue'] },
    },
    facet_limit: {
      description: `Buckets per facet, default ${DEFAULT_FACET_LIMIT}, at most ${MAX_FACET_LIMIT} (else 400).`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_FACET_LIMIT, default: DEFAULT_FACET_LIMIT },
    },
    facet_null: {
      description: `${code('1')}: also the bucket of the papers without a value (${code('"value":null')}), when there are any.`,
      schema: { type: 'string', enum: ['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'] },
    },
    highlight: {
      description:
        `${code('1')}: each paper gets ${code('"_highlight":{"title":…,"abstract":…}')}, the fields as HTML (escaped) with ` +
        `${code('<mark>')} around what ${code('q')} matched (a word, or the matched start of a word); or the fields to mark among ` +
        `${code('title')}, ${code('abstract')}, ${code('authors')} (one string per name). The abstract is cropped around its first ` +
        `match (${code('crop')}). Not in the export.`,
      schema: { type: 'string', examples: ['1', 'title,abstract,authors'] },
    },
    crop: {
      description: `With ${code('highlight')}: words of the abstract kept around its first match (${code('…')} marks the cuts), default ${DEFAULT_CROP}; ${code('0')} keeps the whole abstract.`,
      schema: { type: 'integer', minimum: 0, maximum: MAX_CROP, default: DEFAULT_CROP },
    },
    ...describeFieldSelection(),
  };
}

/** `fields` and `omit`, on the list and the detail. */
function describeFieldSelection(): Record<'fields' | 'omit', { description: string; schema: JsonObject }> {
  const names = PAPER_FIELDS.map(code).join(', ');
  return {
    fields: {
      description:
        `Comma-separated fields each paper keeps (the others are left out), written in the usual order whatever the ` +
        `order named: of ${names}. An unknown name: 400 ${code('{"fields":["Unknown field: …"]}')}. The HTML view ignores it.`,
      schema: { type: 'string', examples: ['id,title', 'id,arxiv_id,published'] },
    },
    omit: {
      description: `Comma-separated fields each paper leaves out (after ${code('fields')}, if both are given). An unknown name: 400.`,
      schema: { type: 'string', examples: ['abstract', 'abstract,authors'] },
    },
  };
}

/** The detail's query parameters beyond `format`: `fields` and `omit` with the extensions on. */
export function detailParameters(extensions = true): JsonObject[] {
  if (!extensions) return [];
  const described = describeFieldSelection();
  return (['fields', 'omit'] as const).map((name) => ({ name, in: 'query', required: false, ...described[name] }));
}

/** `arxiv_id` with the extensions on: several values make a batch lookup. */
const ARXIV_ID_ALTERNATIVES =
  `Only the paper with exactly this arXiv id; or, with several ids separated by ${code('|')} (at most ${MAX_LOOKUP_VALUES}, ` +
  `else 400), the papers with any of them.`;

/** The list endpoint's query parameters, in the parser's order, the extension parameters last. */
export function listParameters(sizes: PageSizes, extensions = true): JsonObject[] {
  const described = describeParameters(sizes);
  if (extensions) described.arxiv_id = { description: ARXIV_ID_ALTERNATIVES, schema: { type: 'string', examples: ['1706.03762', '1706.03762|1810.04805'] } };
  const parameters = LIST_QUERY_PARAMETERS.map((name) => ({ name, in: 'query', required: false, ...described[name] }));
  if (!extensions) return parameters;
  const extended = describeExtensions();
  return [...parameters, ...EXTENSION_PARAMETERS.map((name) => ({ name, in: 'query', required: false, ...extended[name] }))];
}

/** `FieldErrors`: the body of a 400 for invalid filter values, django-filter's messages by parameter. */
export function fieldErrorsSchema(): JsonObject {
  const properties: JsonObject = {};
  for (const name of ['arxiv_id', ...EXTENSION_PARAMETERS]) properties[name] = { type: 'array', items: { type: 'string' }, minItems: 1 };
  return {
    type: 'object',
    description: 'Invalid filter values: the messages by parameter, as django-filter writes them.',
    properties,
    additionalProperties: false,
    minProperties: 1,
    examples: [{ published_after: ['Enter a valid date.'] }],
  };
}

/** `format`: overrides the `Accept` header on every papers path. */
export function formatParameter(extensions = false): JsonObject {
  return {
    name: 'format',
    in: 'query',
    required: false,
    description:
      `Representation, overriding ${code('Accept')}: ${code('json')}, or ${code('html')} (also ${code('api')}) for the ` +
      `browsable page` +
      (extensions ? `, or ${code('jsonl')} on the list for the export (every matching paper, one per line, streamed)` : '') +
      `. Any other value: 404.`,
    schema: { type: 'string', enum: [...Object.keys(FORMAT_VALUES), ...(extensions ? ['jsonl'] : [])] },
  };
}
