import { PAPER_FIELDS, type Paper } from '../paper.js';
import { lastValue, type QueryPair } from './query-string.js';

/** A field of a {@link Paper}. */
export type PaperField = (typeof PAPER_FIELDS)[number];

/** Errors of `fields` and `omit`, by parameter. */
export type FieldSelectionErrors = Partial<Record<'fields' | 'omit', string[]>>;

/**
 * Reads `fields=id,title` (only these) and `omit=abstract` (all but these): the fields each paper
 * of the answer keeps, in the canonical order whatever order they were named in, or `null` when
 * neither is given (every field). Both together: `fields` then `omit`. Names are comma-separated,
 * blanks around them ignored; an unknown name is an error naming it.
 *
 * @example readFieldSelection([['fields', 'title,id']]) // { ok: true, fields: ['id', 'title'] }
 */
export function readFieldSelection(pairs: readonly QueryPair[]): { ok: true; fields: PaperField[] | null } | { ok: false; errors: FieldSelectionErrors } {
  const errors: FieldSelectionErrors = {};
  const names = (parameter: 'fields' | 'omit'): Set<PaperField> | null => {
    const value = lastValue(pairs, parameter);
    if (value === undefined || value.trim() === '') return null;
    const named = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
    const unknown = named.filter((name) => !(PAPER_FIELDS as readonly string[]).includes(name));
    if (unknown.length > 0) {
      errors[parameter] = unknown.map((name) => `Unknown field: ${JSON.stringify(name)}. Fields are ${PAPER_FIELDS.join(', ')}.`);
      return null;
    }
    return new Set(named as PaperField[]);
  };
  const kept = names('fields');
  const omitted = names('omit');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (kept === null && omitted === null) return { ok: true, fields: null };
  return { ok: true, fields: PAPER_FIELDS.filter((field) => (kept === null || kept.has(field)) && (omitted === null || !omitted.has(field))) };
}

/** The compact JSON of the named fields of `paper`, in the canonical order (as `serializePaper` writes them). */
export function serializeFields(paper: Paper, fields: readonly PaperField[]): string {
  let json = '{';
  fields.forEach((field, i) => {
    if (i > 0) json += ',';
    json += `${JSON.stringify(field)}:${JSON.stringify(paper[field])}`;
  });
  return `${json}}`;
}
