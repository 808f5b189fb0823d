import { FormatRegistry, Type, type Static } from '@sinclair/typebox';
import { PAPER_FIELDS, type Paper } from './paper.js';
import { ID_PATTERN, isCalendarDate, isPaper, isPaperId, unknownField } from './paper-check.js';

export { isCalendarDate };

// The registry is global to TypeBox: register `date` once, and keep someone else's registration.
if (!FormatRegistry.Has('date')) FormatRegistry.Set('date', isCalendarDate);

const nullableString = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });

/**
 * The Paper record as a JSON Schema (TypeBox): it describes `Paper` in OpenAPI, and catalogues are
 * validated by {@link validatePaper}, a hand-written check of the same rules (kept equal to this
 * schema by a test). All 13 fields are required (absent values are `null`) and no other field is allowed.
 */
export const PaperSchema = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      pattern: ID_PATTERN,
      description: 'Lowercase hyphen-separated slug, unique in the catalogue (no whitespace or `/`).',
      examples: ['attention-is-all-you-need'],
    }),
    arxiv_id: nullableString('arXiv identifier such as `1706.03762` or `hep-th/9307096`, or null.'),
    nips_id: nullableString('NeurIPS identifier, or null.'),
    url_abs: Type.String({ description: 'URL of the abstract page.' }),
    url_pdf: Type.String({ description: 'URL of the PDF.' }),
    title: Type.String({ description: 'Title of the paper.' }),
    abstract: Type.String({ description: 'Abstract of the paper; empty when unknown.' }),
    authors: Type.Array(Type.String(), { description: 'Author names, in order; empty when unknown.' }),
    published: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'Publication date as `YYYY-MM-DD`, or null when unknown.',
    }),
    conference: nullableString('Id of the conference version of the paper, or null.'),
    conference_url_abs: nullableString('URL of the abstract page of the conference version, or null.'),
    conference_url_pdf: nullableString('URL of the PDF of the conference version, or null.'),
    proceeding: nullableString('Proceedings the conference version appeared in, such as `acl-2020-7`, or null.'),
  },
  { additionalProperties: false, title: 'Paper', description: 'A research paper.' },
);

/** The TypeScript type described by {@link PaperSchema}; the same as {@link Paper}. */
export type PaperSchemaType = Static<typeof PaperSchema>;

// Compile-time proof that the schema and the hand-written interface agree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesPaper: Same<PaperSchemaType, Paper> = true;
void schemaMatchesPaper;

/** Result of {@link validatePaper}. */
export type PaperValidation = { ok: true; paper: Paper } | { ok: false; reason: string };

/**
 * Checks that `value` is a complete, well-formed Paper record.
 * On failure, `reason` names the field of the first problem, e.g.
 * `field "published": expected a real date YYYY-MM-DD, got "2019-02-30"`.
 * The paper returned on success is `value` itself (not a copy).
 */
export function validatePaper(value: unknown): PaperValidation {
  // Checked by hand (see `paper-check.ts`): no validator compiled with `new Function`, so this
  // runs where code generation from strings is refused (Cloudflare Workers, hardened Node).
  if (isPaper(value)) return { ok: true, paper: value };
  return { ok: false, reason: describeProblem(value) };
}

const NULLABLE_FIELDS: ReadonlySet<string> = new Set([
  'arxiv_id',
  'nips_id',
  'published',
  'conference',
  'conference_url_abs',
  'conference_url_pdf',
  'proceeding',
]);

/** The reason for the first problem, in field order: shape, missing fields, unknown fields, then values. */
function describeProblem(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `expected a JSON object, got ${describeValue(value)}`;
  }
  const record = value as Record<string, unknown>;
  for (const field of PAPER_FIELDS) {
    if (!Object.prototype.hasOwnProperty.call(record, field)) return `missing field "${field}"`;
  }
  const unknown = unknownField(record);
  if (unknown !== undefined) return `unknown field ${JSON.stringify(unknown)}`;
  for (const field of PAPER_FIELDS) {
    const reason = fieldProblem(field, record[field]);
    if (reason !== undefined) return `field "${field}": ${reason}`;
  }
  // Not reached: the checks above are those of `isPaper`, field by field.
  return 'invalid record';
}

function fieldProblem(field: (typeof PAPER_FIELDS)[number], value: unknown): string | undefined {
  const orNull = NULLABLE_FIELDS.has(field) ? ' or null' : '';
  switch (field) {
    case 'id':
      if (typeof value !== 'string') return `expected a string, got ${describeValue(value)}`;
      if (value.length === 0) return 'expected a non-empty id';
      if (!isPaperId(value)) {
        return `expected an id without whitespace, "/" or control characters, got ${describeValue(value)}`;
      }
      return undefined;
    case 'authors':
      if (!Array.isArray(value)) return `expected an array of strings, got ${describeValue(value)}`;
      for (let index = 0; index < value.length; index++) {
        const author: unknown = value[index];
        if (typeof author !== 'string') {
          return `expected an array of strings, got ${describeValue(author)} at index ${index}`;
        }
      }
      return undefined;
    case 'published':
      if (value === null) return undefined;
      if (typeof value !== 'string') return `expected a date string YYYY-MM-DD or null, got ${describeValue(value)}`;
      if (!isCalendarDate(value)) {
        return `expected a real date YYYY-MM-DD, got ${describeValue(value)}`;
      }
      return undefined;
    default:
      if (typeof value === 'string' || (value === null && orNull !== '')) return undefined;
      return `expected a string${orNull}, got ${describeValue(value)}`;
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number') return `the number ${String(value)}`;
  return String(value);
}
