/**
 * The byte format of one word's posting list (`paperlist_postings.data`): for each paper holding
 * the word, in ascending ordinal order, the ordinal's distance from the previous one (the first:
 * from 0) as a varint, then the word's occurrences in the paper's title, authors and abstract.
 * Those are small almost always, so they take one byte, `title | authors << 2 | abstract << 4`
 * when title and authors are at most 3 and abstract at most 15; any other triple is the byte
 * 0xFF followed by three varints (title, abstract, authors). A list of a common word costs about
 * two bytes a paper.
 */

/** Occurrences of a word in one paper's fields. */
export interface FieldCounts {
  title: number;
  abstract: number;
  authors: number;
}

const ESCAPE = 0xff;

/** Appends one paper's entry to a growing list; answers the new end. `out` needs 21 free bytes. */
export function encodeEntry(out: Uint8Array, at: number, delta: number, title: number, abstract: number, authors: number): number {
  at = writeVarint(out, at, delta);
  if (title <= 3 && authors <= 3 && abstract <= 15) {
    const packed = title | (authors << 2) | (abstract << 4);
    if (packed !== ESCAPE) {
      out[at] = packed;
      return at + 1;
    }
  }
  out[at++] = ESCAPE;
  at = writeVarint(out, at, title);
  at = writeVarint(out, at, abstract);
  return writeVarint(out, at, authors);
}

/** The most bytes one entry takes. */
export const MAX_ENTRY_BYTES = 21;

function writeVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}

/** A decoded posting list: ordinals ascending, with the word's counts in each paper's fields. */
export interface DecodedPostings {
  ords: Int32Array;
  title: Int32Array;
  abstract: Int32Array;
  authors: Int32Array;
}

/** Decodes a list of `df` entries. */
export function decodePostings(data: Uint8Array, df: number): DecodedPostings {
  const ords = new Int32Array(df);
  const title = new Int32Array(df);
  const abstract = new Int32Array(df);
  const authors = new Int32Array(df);
  let at = 0;
  let ord = 0;
  for (let i = 0; i < df; i++) {
    let delta = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = data[at++]!;
      delta += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte >= 0x80);
    ord += delta;
    ords[i] = ord;
    const packed = data[at++]!;
    if (packed !== ESCAPE) {
      title[i] = packed & 3;
      authors[i] = (packed >> 2) & 3;
      abstract[i] = packed >> 4;
      continue;
    }
    for (const counts of [title, abstract, authors]) {
      let value = 0;
      shift = 0;
      do {
        byte = data[at++]!;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte >= 0x80);
      counts[i] = value;
    }
  }
  if (at !== data.length) throw new Error(`paperlist: a posting list of ${df} papers has ${data.length - at} bytes left over`);
  return { ords, title, abstract, authors };
}
