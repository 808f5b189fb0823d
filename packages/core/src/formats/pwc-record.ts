import type { Paper } from '../paper.js';
import { validatePaper } from '../paper-schema.js';
import { readPwcAnnotations, type PaperAnnotations } from '../annotations/annotations.js';

/**
 * What {@link pwcRecordToPaper} answers: the paper, and beside it (never in it) the record's
 * `tasks` and `methods` when it has any.
 */
export type PwcRecordValidation = { ok: true; paper: Paper; annotations?: PaperAnnotations } | { ok: false; reason: string };

/**
 * The fields of a Papers with Code dump record (`papers-with-abstracts.json`) that make a paper.
 * `tasks` and `methods` are read beside the paper (see `readPwcAnnotations`); other fields of the
 * dump (`repository_url`, ...) are ignored.
 */
export const PWC_FIELDS = [
  'paper_url',
  'arxiv_id',
  'nips_id',
  'title',
  'abstract',
  'url_abs',
  'url_pdf',
  'proceeding',
  'authors',
  'date',
  'conference',
  'conference_url_abs',
  'conference_url_pdf',
] as const;

/** Paper fields that come from a PwC field of another name, for error messages. */
const PWC_NAME_OF: Readonly<Record<string, string>> = { id: 'paper_url', published: 'date' };

/**
 * The id of a paper from its Papers with Code URL: the last path segment, percent-decoded
 * (`https://paperswithcode.com/paper/attention-is-all-you-need/` gives `attention-is-all-you-need`).
 * `undefined` when the URL has no such segment.
 */
export function idFromPaperUrl(paperUrl: string): string | undefined {
  let path: string;
  try {
    path = new URL(paperUrl).pathname;
  } catch {
    // Not an absolute URL: a path such as `/paper/attention-is-all-you-need`.
    path = paperUrl.replace(/[?#].*$/s, '');
  }
  const segment = path.split('/').findLast((part) => part.length > 0);
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Turns one record of the Papers with Code dump into a validated {@link Paper}.
 *
 * `id` is the last path segment of `paper_url` and `published` is `date`; the other fields keep their
 * names. `paper_url` and `title` are required. The dump writes `null` (or leaves out the field) where
 * the API wrote an empty value, so a missing or null `abstract`, `url_abs` or `url_pdf` becomes `""`,
 * `authors` becomes `[]`, an empty `date` and the other missing fields become `null`. Anything else
 * must have the type the {@link Paper} schema asks for; problems are reported with the dump's field
 * names (`field "date": ...`). The record's `tasks` and `methods`, when it has any, come back as
 * `annotations` beside the paper.
 */
export function pwcRecordToPaper(value: unknown): PwcRecordValidation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}` };
  }
  const record = value as Record<string, unknown>;
  const paperUrl = record['paper_url'];
  if (paperUrl === undefined) return { ok: false, reason: 'missing field "paper_url"' };
  if (typeof paperUrl !== 'string') return { ok: false, reason: `field "paper_url": expected a string, got ${describe(paperUrl)}` };
  const id = idFromPaperUrl(paperUrl);
  if (id === undefined) {
    return { ok: false, reason: `field "paper_url": expected a URL ending in the paper's id, got ${JSON.stringify(paperUrl)}` };
  }
  if (record['title'] === undefined) return { ok: false, reason: 'missing field "title"' };
  const date = record['date'];
  const paper = {
    id,
    arxiv_id: orNull(record['arxiv_id']),
    nips_id: orNull(record['nips_id']),
    url_abs: orEmpty(record['url_abs']),
    url_pdf: orEmpty(record['url_pdf']),
    title: record['title'],
    abstract: orEmpty(record['abstract']),
    authors: record['authors'] ?? [],
    published: date === '' ? null : orNull(date),
    conference: orNull(record['conference']),
    conference_url_abs: orNull(record['conference_url_abs']),
    conference_url_pdf: orNull(record['conference_url_pdf']),
    proceeding: orNull(record['proceeding']),
  };
  const result = validatePaper(paper);
  if (!result.ok) return { ok: false, reason: renameFields(result.reason) };
  const annotations = readPwcAnnotations(record);
  return annotations === undefined ? { ok: true, paper: result.paper } : { ok: true, paper: result.paper, annotations };
}

function orNull(value: unknown): unknown {
  return value === undefined ? null : value;
}

function orEmpty(value: unknown): unknown {
  return value === undefined || value === null ? '' : value;
}

function renameFields(reason: string): string {
  return reason.replace(/^field "(id|published)"/, (_match, field: string) => `field "${PWC_NAME_OF[field] ?? field}"`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return `the number ${String(value)}`;
  return String(value);
}
