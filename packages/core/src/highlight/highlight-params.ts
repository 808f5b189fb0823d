import { lastValue, type QueryPair } from '../query/query-string.js';
import type { Paper } from '../paper.js';
import type { SearchTerm } from '../source.js';
import { highlightText } from './highlight-text.js';

/** Fields `_highlight` can hold. */
export type HighlightField = 'title' | 'abstract' | 'authors';
const HIGHLIGHT_FIELDS: readonly HighlightField[] = ['title', 'abstract', 'authors'];

/** Default and largest `crop` (words kept around the abstract's first match; 0: all). */
export const DEFAULT_CROP = 30;
export const MAX_CROP = 1000;

/** What `highlight` and `crop` ask for. */
export interface HighlightRequest {
  fields: HighlightField[];
  crop: number;
}

export type HighlightErrors = Partial<Record<'highlight' | 'crop', string[]>>;

const TRUE_VALUES = new Set(['1', 'true', 'yes', 'on', 't', 'y']);
const FALSE_VALUES = new Set(['0', 'false', 'no', 'off', 'f', 'n']);

/**
 * Reads `highlight` (`1` for the title and abstract, or the fields: `title,abstract,authors`) and
 * `crop` (words of the abstract kept around its first match, default 30, `0` for all): `null`
 * when no highlight is asked for.
 */
export function readHighlightRequest(pairs: readonly QueryPair[]): { ok: true; highlight: HighlightRequest | null } | { ok: false; errors: HighlightErrors } {
  const errors: HighlightErrors = {};
  const value = (lastValue(pairs, 'highlight') ?? '').trim();
  let fields: HighlightField[] = [];
  if (TRUE_VALUES.has(value.toLowerCase())) fields = ['title', 'abstract'];
  else if (value !== '' && !FALSE_VALUES.has(value.toLowerCase())) {
    const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
    const unknown = names.filter((name) => !(HIGHLIGHT_FIELDS as readonly string[]).includes(name));
    if (unknown.length > 0) errors.highlight = [`Enter 1 or fields among ${HIGHLIGHT_FIELDS.join(', ')}; unknown: ${unknown.join(', ')}.`];
    fields = HIGHLIGHT_FIELDS.filter((field) => names.includes(field));
  }
  let crop = DEFAULT_CROP;
  const cropValue = lastValue(pairs, 'crop');
  if (cropValue !== undefined && cropValue.trim() !== '') {
    if (!/^\s*\d+\s*$/.test(cropValue)) errors.crop = ['A valid integer is required.'];
    else if (Number(cropValue) > MAX_CROP) errors.crop = [`Ensure this value is less than or equal to ${MAX_CROP}.`];
    else crop = Number(cropValue);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, highlight: fields.length === 0 ? null : { fields, crop } };
}

/** The `_highlight` object of a paper: each field asked for as HTML with the matches marked (authors: one string each). */
export function paperHighlight(paper: Paper, terms: readonly SearchTerm[], request: HighlightRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const field of request.fields) {
    if (field === 'title') out['title'] = highlightText(paper.title, terms);
    else if (field === 'abstract') out['abstract'] = highlightText(paper.abstract, terms, { crop: request.crop });
    else out['authors'] = paper.authors.map((name) => highlightText(name, terms));
  }
  return out;
}
