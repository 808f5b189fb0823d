/**
 * A representation the papers API can answer with: `jsonl` is the export (JSON Lines, every
 * matching paper), an extension offered only when the handler's extensions are on.
 */
export type Representation = 'json' | 'html' | 'jsonl';

/** The values of `?format=` and the representation each selects (`api` is DRF's name for HTML). */
export const FORMAT_VALUES = { json: 'json', html: 'html', api: 'html' } as const satisfies Record<string, Representation>;

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/**
 * Picks the representation for a request from `?format=` (which overrides everything, as
 * Django REST Framework's `format` does) or the `Accept` header. `null` means neither JSON
 * nor HTML is acceptable (406); `'unknown-format'` an unsupported `format` value (404).
 * JSON wins ties, so clients that send `*\/*` get JSON; HTML only when preferred outright.
 */
export function negotiateRepresentation(
  accept: string | undefined,
  format: string | undefined,
  options: { jsonl?: boolean } = {},
): Representation | 'unknown-format' | null {
  const jsonl = options.jsonl === true;
  if (format !== undefined && format !== '') {
    if (jsonl && format === 'jsonl') return 'jsonl';
    return Object.hasOwn(FORMAT_VALUES, format) ? FORMAT_VALUES[format as keyof typeof FORMAT_VALUES] : 'unknown-format';
  }
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return 'json';
  const json = quality(ranges, 'application', 'json');
  const html = quality(ranges, 'text', 'html');
  // Only an exact `application/x-ndjson` asks for the export: `*/*` keeps meaning JSON.
  const lines = jsonl ? exactQuality(ranges, 'application', 'x-ndjson') : 0;
  if (json <= 0 && html <= 0 && lines <= 0) return null;
  if (lines > json && lines >= html) return 'jsonl';
  return html > json ? 'html' : 'json';
}

/** The quality of a range naming exactly this type, or 0. */
function exactQuality(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best = 0;
  for (const range of ranges) if (range.type === type && range.subtype === subtype) best = Math.max(best, range.q);
  return best;
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [mediaType = '', ...params] = part.split(';');
    const [type, subtype] = mediaType.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined) {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 1;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

// The quality of the most specific range that matches (RFC 9110 §12.5.1).
function quality(ranges: readonly MediaRange[], type: string, subtype: string): number {
  let best = -1;
  let bestSpecificity = -1;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      best = range.q;
    }
  }
  return best < 0 ? 0 : best;
}
