import { EncodedPaper, type PaperRecord } from '../encoded-paper.js';
import { PAPER_FIELDS } from '../paper.js';
import { serializeFields, type PaperField } from './field-selection.js';
import { toPaper } from '../encoded-paper.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const utf8 = new TextEncoder();

/** `"key":` of each field, as the canonical JSON writes it. */
const KEY_BYTES = PAPER_FIELDS.map((field) => utf8.encode(`${JSON.stringify(field)}:`));
const FIELD_INDEX = new Map<PaperField, number>(PAPER_FIELDS.map((field, i) => [field, i]));
// Where each field's value starts and ends in the paper being cut (reused: a call runs to its end).
const starts = new Int32Array(PAPER_FIELDS.length);
const ends = new Int32Array(PAPER_FIELDS.length);

/**
 * The JSON of the named fields of a paper (as `serializeFields` writes them), cut out of its
 * canonical JSON bytes without decoding them: the stored bytes are `JSON.stringify`'s, keys in
 * the canonical order and values strings, nulls or arrays of strings, so each value is found by
 * skipping strings (and their escapes) and copied as it is. Several times faster than parsing
 * and writing the paper again; a record that is not encoded is serialized the slow way.
 */
export function projectFields(record: PaperRecord, fields: readonly PaperField[]): Uint8Array {
  if (!EncodedPaper.is(record)) return utf8.encode(serializeFields(toPaper(record), fields));
  const json = record.json;
  // Values are found up to the last field asked for only: `fields=id,title` never walks the abstract.
  let last = -1;
  for (const field of fields) last = Math.max(last, FIELD_INDEX.get(field)!);
  let at = 1; // past `{`
  for (let f = 0; f <= last; f++) {
    at += KEY_BYTES[f]!.length;
    starts[f] = at;
    at = valueEnd(json, at);
    ends[f] = at;
    at++; // `,` or `}`
  }
  let size = 2;
  for (const field of fields) {
    const f = FIELD_INDEX.get(field)!;
    size += KEY_BYTES[f]!.length + ends[f]! - starts[f]! + 1;
  }
  const out = new Uint8Array(fields.length === 0 ? 2 : size - 1);
  let o = 0;
  out[o++] = 0x7b; // {
  for (let i = 0; i < fields.length; i++) {
    const f = FIELD_INDEX.get(fields[i]!)!;
    if (i > 0) out[o++] = COMMA;
    out.set(KEY_BYTES[f]!, o);
    o += KEY_BYTES[f]!.length;
    out.set(json.subarray(starts[f]!, ends[f]!), o);
    o += ends[f]! - starts[f]!;
  }
  out[o] = 0x7d; // }
  return out;
}

/** Where the JSON value starting at `at` ends (a string, `null`, or an array of strings). */
function valueEnd(json: Uint8Array, at: number): number {
  const first = json[at];
  if (first === QUOTE) return stringEnd(json, at);
  if (first === OPEN_BRACKET) {
    let i = at + 1;
    while (json[i] !== CLOSE_BRACKET) {
      if (json[i] === COMMA) i++;
      i = stringEnd(json, i);
    }
    return i + 1;
  }
  return at + 4; // null
}

/** Where the JSON string starting at `at` (its opening quote) ends, past its closing quote. */
function stringEnd(json: Uint8Array, at: number): number {
  let i = at + 1;
  for (;;) {
    const byte = json[i]!;
    if (byte === QUOTE) return i + 1;
    i += byte === BACKSLASH ? 2 : 1;
  }
}
