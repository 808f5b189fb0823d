import { lastValue, type QueryPair } from '../query/query-string.js';
import type { PaperFilters } from '../source.js';
import { MAX_QUERY_LENGTH } from '../text/parse-search.js';
import { textWords } from '../text/words.js';
import { dayBound, intersectRanges, yearRange, type DayRange } from './date-range.js';
import { venueKeysFor } from './venue-key.js';
import { nameSlug } from '../annotations/annotations.js';
import { readFieldSelection, type PaperField } from '../query/field-selection.js';
import { readFacetRequest, type FacetRequest } from '../facets/facet-params.js';
import { readHighlightRequest, type HighlightRequest } from '../highlight/highlight-params.js';

/**
 * The list parameters beyond the original API (issue 19), in the order their errors are
 * written. Each is read only when the handler's `extensions` option is on; otherwise they are
 * unknown parameters, ignored as before.
 */
export const EXTENSION_PARAMETERS = ['published_after', 'published_before', 'year', 'author', 'author_name', 'proceeding', 'venue', 'task', 'method', 'id', 'count_only', 'fields', 'omit', 'cursor', 'facets', 'facet_limit', 'facet_null', 'highlight', 'crop'] as const;

/** A parameter of {@link EXTENSION_PARAMETERS}. */
export type ExtensionParameter = (typeof EXTENSION_PARAMETERS)[number];

/** Most `|` alternatives of `author`. */
export const MAX_AUTHOR_ALTERNATIVES = 32;
/** Most words in one `author` alternative. */
export const MAX_AUTHOR_WORDS = 32;
/** Most `|` values of `author_name`. */
export const MAX_AUTHOR_NAMES = 100;
/** Most `|` values of `proceeding` or `venue`. */
export const MAX_VENUE_VALUES = 100;
/** Most `|` values of `task` or `method`. */
export const MAX_ANNOTATION_VALUES = 100;
/** Most `|` values of `id` or `arxiv_id` (a batch lookup). */
export const MAX_LOOKUP_VALUES = 100;

/**
 * Errors by parameter, in django-filter's shape: `{"published_after": ["Enter a valid date."]}`.
 * `arxiv_id` is an original parameter whose `|` alternatives are an extension.
 */
export type FieldErrors = Partial<Record<ExtensionParameter | 'arxiv_id' | 'ordering', string[]>>;

/** What the extension parameters add to a list request besides filters. */
export interface ExtensionRequest {
  /** `count_only`: answer the count alone (no results, no links). */
  countOnly: boolean;
  /** `fields`/`omit`: the fields each paper keeps, in canonical order; `null`: all of them. */
  fields: PaperField[] | null;
  /** `facets`, `facet_limit`, `facet_null`: the facets to count; `null`: none. */
  facets: FacetRequest | null;
  /** `highlight`, `crop`: the matches to mark in each paper; `null`: none. */
  highlight: HighlightRequest | null;
}

/** What the extension parameters read need besides the query. */
export interface ExtensionOptions {
  /** Venue aliases (`nips` → `neurips`), keys and values lower-case. */
  venueAliases: Readonly<Record<string, string>>;
}

const INVALID_DATE = 'Enter a valid date.';
const INVALID_YEAR = 'Enter a valid year or range of years: 2020, 2016-2020, 2010- or -2015.';
const INVALID_AUTHOR = 'Enter words of an author name, alternatives separated by |.';
const tooLong = `Ensure this value has at most ${MAX_QUERY_LENGTH} characters.`;

/**
 * Reads the extension parameters into filters (added to `filters`), or the errors of the
 * invalid ones. Empty values filter nothing, as with django-filter; a repeated parameter:
 * the last value wins.
 *
 * @example
 * readExtensionFilters([['year', '2016-2020'], ['venue', 'NIPS']], {}, { venueAliases: { nips: 'neurips' } })
 * // { ok: true } and filters { published: { from: '2016-01-01', to: '2020-12-31' }, venues: ['neurips', 'nips'] }
 */
export function readExtensionFilters(
  pairs: readonly QueryPair[],
  filters: PaperFilters,
  options: ExtensionOptions,
): ({ ok: true } & ExtensionRequest) | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const value = (name: ExtensionParameter | 'arxiv_id') => {
    const raw = lastValue(pairs, name);
    return raw === undefined || raw.trim() === '' ? undefined : raw;
  };

  const ranges: DayRange[] = [];
  const after = value('published_after');
  if (after !== undefined) {
    const from = dayBound(after, 'first');
    if (from === null) errors.published_after = [INVALID_DATE];
    else ranges.push({ from });
  }
  const before = value('published_before');
  if (before !== undefined) {
    const to = dayBound(before, 'last');
    if (to === null) errors.published_before = [INVALID_DATE];
    else ranges.push({ to });
  }
  const year = value('year');
  if (year !== undefined) {
    const range = yearRange(year);
    if (range === null) errors.year = [INVALID_YEAR];
    else ranges.push(range);
  }
  if (ranges.length > 0) {
    filters.published = intersectRanges(ranges);
  }

  const author = value('author');
  if (author !== undefined) {
    const read = readAuthors(author);
    if (typeof read === 'string') errors.author = [read];
    else if (read.length > 0) filters.authors = read;
  }
  // An author name exactly as written (the values of the `author` facet): no folding, no trimming.
  const authorName = value('author_name');
  if (authorName !== undefined) {
    const values = alternatives(authorName, false);
    if (values.length > MAX_AUTHOR_NAMES) errors.author_name = [`Ensure this value has at most ${MAX_AUTHOR_NAMES} alternatives.`];
    else if (values.some((v) => [...v].length > MAX_QUERY_LENGTH)) errors.author_name = [tooLong];
    else if (values.length > 0) filters.authorNames = [...new Set(values)].sort();
  }
  const proceeding = value('proceeding');
  if (proceeding !== undefined) {
    const values = alternatives(proceeding, false);
    if (values.length > MAX_VENUE_VALUES) errors.proceeding = [`Ensure this value has at most ${MAX_VENUE_VALUES} alternatives.`];
    else if (values.length > 0) filters.proceedings = [...new Set(values)].sort();
  }
  const venue = value('venue');
  if (venue !== undefined) {
    const values = alternatives(venue, true);
    if (values.length > MAX_VENUE_VALUES) errors.venue = [`Ensure this value has at most ${MAX_VENUE_VALUES} alternatives.`];
    else if (values.length > 0) filters.venues = [...new Set(values.flatMap((v) => venueKeysFor(v, options.venueAliases)))].sort();
  }

  for (const [name, key] of [['task', 'tasks'], ['method', 'methods']] as const) {
    const raw = value(name);
    if (raw === undefined) continue;
    const values = alternatives(raw, true);
    if (values.length > MAX_ANNOTATION_VALUES) errors[name] = [`Ensure this value has at most ${MAX_ANNOTATION_VALUES} alternatives.`];
    else if (values.length > 0) {
      // A value matches by its slug, so `Image Classification` and `image-classification` agree.
      // A value with no slug at all can match nothing: it is kept as `-`, which no slug equals.
      filters[key] = [...new Set(values.map((v) => nameSlug(v) || '-'))].sort(compareCodePoints);
    }
  }

  // A batch lookup: `arxiv_id=a|b` (one value stays the original exact filter) and `id=a|b`.
  const arxivId = value('arxiv_id');
  if (arxivId !== undefined && arxivId.includes('|')) {
    const values = lookupValues(arxivId);
    if (values.length > MAX_LOOKUP_VALUES) errors.arxiv_id = [tooManyValues];
    else if (values.length > 0) {
      delete filters.arxivId;
      filters.arxivIds = values;
    }
  }
  const id = value('id');
  if (id !== undefined) {
    const values = lookupValues(id);
    if (values.length > MAX_LOOKUP_VALUES) errors.id = [tooManyValues];
    else if (values.length > 0) filters.ids = values;
  }

  let countOnly = false;
  const countOnlyValue = value('count_only');
  if (countOnlyValue !== undefined) {
    const flag = readBoolean(countOnlyValue);
    if (flag === null) errors.count_only = ['Must be a valid boolean.'];
    else countOnly = flag;
  }
  const selection = readFieldSelection(pairs);
  if (!selection.ok) Object.assign(errors, selection.errors);
  const fields = selection.ok ? selection.fields : null;
  const facetRequest = readFacetRequest(pairs);
  if (!facetRequest.ok) Object.assign(errors, facetRequest.errors);
  const facets = facetRequest.ok ? facetRequest.facets : null;
  const highlightRequest = readHighlightRequest(pairs);
  if (!highlightRequest.ok) Object.assign(errors, highlightRequest.errors);
  const highlight = highlightRequest.ok ? highlightRequest.highlight : null;
  return Object.keys(errors).length === 0 ? { ok: true, countOnly, fields, facets, highlight } : { ok: false, errors };
}

const tooManyValues = `Ensure this value has at most ${MAX_LOOKUP_VALUES} alternatives.`;

/** The distinct `|` values of a lookup, sorted by code point (ids are matched exactly: no trimming). */
function lookupValues(value: string): string[] {
  return [...new Set(value.split('|').filter((v) => v !== ''))].sort(compareCodePoints);
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// The values Django REST Framework's BooleanField accepts.
const TRUE_VALUES = new Set(['1', 'true', 'yes', 'on', 't', 'y']);
const FALSE_VALUES = new Set(['0', 'false', 'no', 'off', 'f', 'n']);

function readBoolean(value: string): boolean | null {
  const lower = value.trim().toLowerCase();
  return TRUE_VALUES.has(lower) ? true : FALSE_VALUES.has(lower) ? false : null;
}

/** The `|` alternatives of a value, empty ones dropped (trimmed when `trim`). */
function alternatives(value: string, trim: boolean): string[] {
  return value.split('|').filter((v) => v.trim() !== '').map((v) => (trim ? v.trim() : v));
}

/** `author`: its alternatives as folded words, or the error message. */
function readAuthors(value: string): string[][] | string {
  if ([...value].length > MAX_QUERY_LENGTH) return tooLong;
  const read: string[][] = [];
  for (const alternative of alternatives(value, true)) {
    const words = textWords(alternative);
    if (words.length === 0) return INVALID_AUTHOR;
    if (words.length > MAX_AUTHOR_WORDS) return `Ensure each author has at most ${MAX_AUTHOR_WORDS} words.`;
    read.push(words);
  }
  if (read.length > MAX_AUTHOR_ALTERNATIVES) return `Ensure this value has at most ${MAX_AUTHOR_ALTERNATIVES} alternatives.`;
  return read;
}
