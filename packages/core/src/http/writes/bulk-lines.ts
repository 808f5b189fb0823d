import type { PaperChange } from '../../writes/paper-changes.js';
import { isPaperId } from '../../paper-check.js';
import { pythonTypeName, readPaperInput, type PaperFieldErrors } from './paper-input.js';

/** One invalid line of a bulk body: its number (1-based, blank lines counted) and its errors. */
export interface LineErrors {
  line: number;
  errors: PaperFieldErrors;
}

/** At most this many invalid lines are listed in a `400` (the `detail` gives the total). */
export const MAX_LISTED_LINES = 100;

/** Result of {@link parseBulkLines}: the batch, or every invalid line. */
export type BulkParse = { ok: true; changes: PaperChange[] } | { ok: false; invalid: number; lines: LineErrors[] };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON Lines bulk body as a write batch: each line a paper (upsert, the rules of a `PUT` body,
 * `id` required) or `{"delete":"<id>"}`; blank lines (whitespace only) are skipped; `\r\n` is
 * accepted. Every line is checked; one invalid line makes the whole batch invalid.
 */
export function parseBulkLines(bytes: Uint8Array): BulkParse {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, invalid: 1, lines: [{ line: 1, errors: { non_field_errors: ['JSON parse error - the body is not valid UTF-8.'] } }] };
  }
  const changes: PaperChange[] = [];
  const lines: LineErrors[] = [];
  let invalid = 0;
  const fail = (line: number, errors: PaperFieldErrors) => {
    invalid++;
    if (lines.length < MAX_LISTED_LINES) lines.push({ line, errors });
  };
  let number = 0;
  for (const raw of text.split('\n')) {
    number++;
    const line = raw.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      fail(number, { non_field_errors: [`JSON parse error - ${(error as Error).message}`] });
      continue;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, 'delete')) {
      const errors = deleteErrors(value as Record<string, unknown>);
      if (errors === null) changes.push({ op: 'delete', id: (value as { delete: string }).delete });
      else fail(number, errors);
      continue;
    }
    const input = readPaperInput(value);
    if (input.ok) changes.push({ op: 'upsert', paper: input.paper });
    else fail(number, input.errors);
  }
  return invalid === 0 ? { ok: true, changes } : { ok: false, invalid, lines };
}

function deleteErrors(record: Record<string, unknown>): PaperFieldErrors | null {
  const extra = Object.keys(record).filter((key) => key !== 'delete');
  if (extra.length > 0) return { non_field_errors: [`A delete line holds only "delete"; got also ${extra.map((key) => JSON.stringify(key)).join(', ')}.`] };
  const id = record['delete'];
  if (typeof id !== 'string') return { delete: [id === null ? 'This field may not be null.' : `Not a valid string: got ${pythonTypeName(id)}.`] };
  if (!isPaperId(id)) return { delete: [id === '' ? 'This field may not be blank.' : 'Enter a valid id: no whitespace, "/" or control characters.'] };
  return null;
}
