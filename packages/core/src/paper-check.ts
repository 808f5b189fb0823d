import { PAPER_FIELDS, type Paper } from './paper.js';

/**
 * The Paper record's rules checked by hand, not by a validator compiled at run time: TypeBox's
 * and Ajv's compilers build their checks with `new Function`, which Cloudflare Workers and any
 * host started with `--disallow-code-generation-from-strings` refuse. The rules are those of
 * `PaperSchema` (`paper-check.test.ts` holds them equal to TypeBox's compiled check), and the
 * check is as fast: one pass over the fields, no allocation but the key list.
 */

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A non-empty id without whitespace, `/` or control characters (the `PaperSchema` pattern). */
export const ID_PATTERN = '^[^\\s/\\u0000-\\u001f\\u007f-\\u009f]+$';
const ID_SHAPE = new RegExp(ID_PATTERN);

/** True when `value` is a real calendar date written `YYYY-MM-DD` (leap years included). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_SHAPE.exec(value);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Whether `value` is an acceptable paper id (non-empty, no whitespace, `/` or control characters). */
export function isPaperId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && ID_SHAPE.test(value);
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set(PAPER_FIELDS);

/**
 * Whether `value` is a complete, well-formed Paper record: a plain object whose own properties
 * are exactly the 13 fields, each of its type, `published` a real date or null.
 */
export function isPaper(value: unknown): value is Paper {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  return (
    isPaperId(r['id']) &&
    isNullableString(r['arxiv_id']) &&
    isNullableString(r['nips_id']) &&
    typeof r['url_abs'] === 'string' &&
    typeof r['url_pdf'] === 'string' &&
    typeof r['title'] === 'string' &&
    typeof r['abstract'] === 'string' &&
    isStringArray(r['authors']) &&
    isPublished(r['published']) &&
    isNullableString(r['conference']) &&
    isNullableString(r['conference_url_abs']) &&
    isNullableString(r['conference_url_pdf']) &&
    isNullableString(r['proceeding']) &&
    hasOnlyPaperFields(r)
  );
}

function isNullableString(value: unknown): boolean {
  return value === null || typeof value === 'string';
}

function isStringArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

function isPublished(value: unknown): boolean {
  return value === null || (typeof value === 'string' && isCalendarDate(value));
}

/** Own property names (enumerable or not, as JSON Schema's `additionalProperties` reads them) all fields. */
export function hasOnlyPaperFields(record: object): boolean {
  const keys = Object.getOwnPropertyNames(record);
  // 13 distinct names that are all fields: every field is an own property, none other is.
  if (keys.length !== PAPER_FIELDS.length) return false;
  for (let i = 0; i < keys.length; i++) if (!KNOWN_FIELDS.has(keys[i]!)) return false;
  return true;
}

/** The first own property that is not a field, if any. */
export function unknownField(record: object): string | undefined {
  return Object.getOwnPropertyNames(record).find((key) => !KNOWN_FIELDS.has(key));
}
