import { PAPER_FIELDS, type Paper } from '../../paper.js';
import { isCalendarDate, isPaperId } from '../../paper-check.js';
import { validatePaper } from '../../paper-schema.js';

/**
 * Errors by field, as Django REST Framework writes them: `{"title":["This field is required."]}`;
 * `authors` items as `{"authors":{"2":["Not a valid string."]}}`; errors of the whole record
 * under `non_field_errors`.
 */
export type PaperFieldErrors = Record<string, string[] | Record<string, string[]>>;

/** Result of {@link readPaperInput}: the paper to store, or its errors. */
export type PaperInput = { ok: true; paper: Paper } | { ok: false; errors: PaperFieldErrors };

/** Fields a write may leave out, and what they then hold (as the catalogue's absent values). */
const DEFAULTS: Readonly<Partial<Record<keyof Paper, unknown>>> = {
  arxiv_id: null,
  nips_id: null,
  abstract: '',
  authors: [],
  published: null,
  conference: null,
  conference_url_abs: null,
  conference_url_pdf: null,
  proceeding: null,
};
const NULLABLE: ReadonlySet<string> = new Set(['arxiv_id', 'nips_id', 'published', 'conference', 'conference_url_abs', 'conference_url_pdf', 'proceeding']);
const KNOWN: ReadonlySet<string> = new Set(PAPER_FIELDS);

/**
 * A paper as a write sends it, checked field by field with every error reported (not only the
 * first). Required: `id` (the path gives it to a `PUT`), `title`, `url_abs`, `url_pdf`; the
 * others default to their absent value (`null`, `""` for `abstract`, `[]` for `authors`).
 * Unknown fields are errors, not ignored, so a misspelt field never silently stores null.
 * The result passes `validatePaper`, the catalogue's own check (the final word).
 */
export function readPaperInput(value: unknown): PaperInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`] } };
  }
  const record = value as Record<string, unknown>;
  const errors: PaperFieldErrors = {};
  const paper: Record<string, unknown> = {};
  for (const field of PAPER_FIELDS) {
    const given = Object.prototype.hasOwnProperty.call(record, field) ? record[field] : undefined;
    if (given === undefined) {
      if (field in DEFAULTS) paper[field] = structuredClone(DEFAULTS[field]);
      else errors[field] = ['This field is required.'];
      continue;
    }
    const problem = fieldError(field, given);
    if (problem === undefined) paper[field] = given;
    else errors[field] = problem;
  }
  for (const field of Object.keys(record)) if (!KNOWN.has(field)) errors[field] = ['Unknown field.'];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const checked = validatePaper(paper);
  return checked.ok ? { ok: true, paper: checked.paper } : { ok: false, errors: { non_field_errors: [checked.reason] } };
}

function fieldError(field: (typeof PAPER_FIELDS)[number], value: unknown): string[] | Record<string, string[]> | undefined {
  if (value === null) return NULLABLE.has(field) ? undefined : ['This field may not be null.'];
  switch (field) {
    case 'id':
      if (typeof value !== 'string') return ['Not a valid string.'];
      if (value === '') return ['This field may not be blank.'];
      return isPaperId(value) ? undefined : ['Enter a valid id: no whitespace, "/" or control characters.'];
    case 'authors': {
      if (!Array.isArray(value)) return [`Expected a list of items but got type "${pythonTypeName(value)}".`];
      const items: Record<string, string[]> = {};
      value.forEach((author: unknown, index) => {
        if (typeof author !== 'string') items[String(index)] = ['Not a valid string.'];
      });
      return Object.keys(items).length === 0 ? undefined : items;
    }
    case 'published':
      return typeof value === 'string' && isCalendarDate(value) ? undefined : ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];
    default:
      return typeof value === 'string' ? undefined : ['Not a valid string.'];
  }
}

/** The Python type name DRF's messages use for a JSON value. */
export function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}
