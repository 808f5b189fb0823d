import { EncodedPaper } from '../encoded-paper.js';
import type { Paper } from '../paper.js';
import { serializePaper } from '../paper.js';
import { Growable } from './growable.js';
import { int32Array, uint16Array, uint32Array, uint8Array } from './alloc.js';
import { jsonKeepsAsIs, jsonStringBytes } from './json-string-bytes.js';
import { readJsonString, stringEnd } from './json-string-read.js';

export { readJsonString, stringEnd };

/**
 * Largest storage chunk (a paper never spans two chunks; a larger paper gets a chunk of its
 * own). Chunks grow from 1 MiB to this, and the last one is trimmed to its content, so the
 * store holds its JSON and at most one paper's slack per chunk.
 */
const CHUNK_BYTES = 64 * 1024 * 1024;
const FIRST_CHUNK_BYTES = 1024 * 1024;
/** The smallest first chunk, for a store whose size is estimated (see `PaperStoreBuilder`). */
const MIN_CHUNK_BYTES = 4096;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const utf8 = new TextDecoder();

/**
 * Every paper's JSON, encoded once: UTF-8 bytes in a few large chunks, located by per-paper
 * offsets. Answers hand out views of these bytes (`EncodedPaper`), so a response is a copy,
 * never a re-serialization. Also finds papers by id through a hash table over the same bytes
 * (by arXiv id: `arxiv-lookup.ts`), and reads the title and abstract back for the substring filters.
 */
export class PaperStore {
  constructor(
    /** The JSON, in chunks of shared memory; a paper never spans two chunks. */
    readonly chunks: readonly Uint8Array[],
    readonly chunkOf: Uint16Array,
    readonly start: Uint32Array,
    /** Bytes of each paper's JSON (16 bits when every paper fits). */
    readonly length: Uint16Array | Uint32Array,
    /** Offset of the title's JSON string inside the paper's JSON (16 bits when every offset fits). */
    readonly titleAt: Uint16Array | Uint32Array,
    /** Offset of the abstract's JSON string inside the paper's JSON (16 bits when every offset fits). */
    readonly abstractAt: Uint16Array | Uint32Array,
    readonly idTable: Int32Array,
  ) {}

  get size(): number {
    return this.start.length;
  }

  /** Total bytes of JSON held. */
  get jsonBytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  }

  /** The JSON bytes of paper `d` (a view of the store's shared memory: never hand it out). */
  json(d: number): Uint8Array {
    const s = this.start[d]!;
    return this.chunks[this.chunkOf[d]!]!.subarray(s, s + this.length[d]!);
  }

  /**
   * Paper `d` as pre-encoded JSON, in a copy of its own: the store's memory is shared, and a
   * `Response` or another thread must never be handed a view of it.
   */
  encoded(d: number): EncodedPaper {
    const json = this.json(d);
    return new EncodedPaper(readJsonString(json, 6), json.slice());
  }

  /** Paper `d` decoded. */
  paper(d: number): Paper {
    return JSON.parse(utf8.decode(this.json(d))) as Paper;
  }

  /** The paper with this id, or -1. */
  findId(id: string): number {
    return this.findIdKey(idKey(id));
  }

  /** {@link findId} by the id's key ({@link idKey}): a lookup in several stores encodes the id once. */
  findIdKey({ bytes: key, hash }: IdKey): number {
    const mask = this.idTable.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const d = this.idTable[slot]! - 1;
      if (d < 0) return -1;
      // Read in the chunk itself: a view of the paper per probe cost a third of the lookup.
      if (bytesEqual(this.chunks[this.chunkOf[d]!]!, this.start[d]! + 6, key)) return d;
    }
  }

  /** The chunk holding paper `d`'s JSON. */
  chunk(d: number): Uint8Array {
    return this.chunks[this.chunkOf[d]!]!;
  }

  /** Where, in its chunk, the JSON string of paper `d`'s title (or abstract) opens. */
  fieldStart(d: number, field: 'title' | 'abstract'): number {
    return this.start[d]! + (field === 'title' ? this.titleAt[d]! : this.abstractAt[d]!);
  }

  /** Whether the title of paper `d`, lower-cased, contains `needle` (already lower-cased). */
  titleContains(d: number, needle: string, needleBytes: Uint8Array | null): boolean {
    return fieldContains(this.chunks[this.chunkOf[d]!]!, this.start[d]! + this.titleAt[d]!, needle, needleBytes);
  }

  /** Whether the abstract of paper `d`, lower-cased, contains `needle` (already lower-cased). */
  abstractContains(d: number, needle: string, needleBytes: Uint8Array | null): boolean {
    return fieldContains(this.chunks[this.chunkOf[d]!]!, this.start[d]! + this.abstractAt[d]!, needle, needleBytes);
  }

  /**
   * A 32-bit digest of all the JSON (papers in input order), for the catalogue version. It
   * reads the bytes as one stream of little-endian 32-bit words, so it does not depend on
   * how the bytes were split into chunks.
   */
  digest(): string {
    let h = 0x811c9dc5 ^ this.size;
    let carry = 0; // bytes of an unfinished word, little-endian
    let carried = 0;
    for (const chunk of this.chunks) {
      let i = 0;
      while (carried > 0 && carried < 4 && i < chunk.byteLength) carry |= chunk[i++]! << (8 * carried++);
      if (carried === 4) {
        h = Math.imul(h ^ carry, 0x01000193) ^ (h >>> 15);
        carry = 0;
        carried = 0;
      }
      const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const whole = i + ((chunk.byteLength - i) & ~3);
      for (; i < whole; i += 4) h = Math.imul(h ^ view.getUint32(i, true), 0x01000193) ^ (h >>> 15);
      for (; i < chunk.byteLength; i++) carry |= chunk[i]! << (8 * carried++);
    }
    if (carried > 0) h = Math.imul(h ^ carry, 0x01000193) ^ (h >>> 15);
    return (h >>> 0).toString(16).padStart(8, '0');
  }
}

/** ASCII bytes of `needle` when it is pure ASCII (for the byte-level search), else null. */
export function asciiBytes(needle: string): Uint8Array | null {
  const bytes = new Uint8Array(needle.length);
  for (let i = 0; i < needle.length; i++) {
    const c = needle.charCodeAt(i);
    if (c >= 128) return null;
    bytes[i] = c;
  }
  return bytes;
}

/** Lower-cased decoded text of the field being read (grown as needed; one per thread). */
let lowered = new Uint8Array(4096);

/**
 * `JSON.parse(literal).toLowerCase().includes(needle)` for the JSON string at `[from, to)`.
 * ASCII text (most fields) is decoded from its escapes and lower-cased into a scratch buffer
 * in one pass, then searched with the native `indexOf` of its first byte; text with
 * non-ASCII characters, whose lower case may change lengths, is parsed and lower-cased as a string.
 */
function fieldContains(json: Uint8Array, from: number, needle: string, needleBytes: Uint8Array | null): boolean {
  let out = lowered;
  let length = 0;
  // One pass to the closing quote: escapes decoded, ASCII lower-cased.
  for (let i = from + 1; ; i++) {
    let b = json[i]!;
    if (b === QUOTE) break;
    if (b >= 0x80) return textContains(json, from, needle);
    if (b === BACKSLASH) {
      b = json[++i]!;
      if (b === 0x75) {
        // \uXXXX: a control character here, or a non-ASCII one.
        b = parseInt(String.fromCharCode(json[i + 1]!, json[i + 2]!, json[i + 3]!, json[i + 4]!), 16);
        if (!(b < 0x80)) return textContains(json, from, needle);
        i += 4;
      } else b = ESCAPED[b]!;
    }
    if (length === out.length) {
      lowered = new Uint8Array(out.length * 2);
      lowered.set(out);
      out = lowered;
    }
    out[length++] = b >= 65 && b <= 90 ? b + 32 : b;
  }
  if (needleBytes === null) return false; // a non-ASCII needle in ASCII text
  const m = needleBytes.length;
  if (m === 0) return true;
  const text = out.subarray(0, length);
  const first = needleBytes[0]!;
  for (let at = text.indexOf(first); at >= 0 && at <= length - m; at = text.indexOf(first, at + 1)) {
    let j = 1;
    while (j < m && text[at + j] === needleBytes[j]) j++;
    if (j === m) return true;
  }
  return false;
}

/** The slow, general way: the string itself, lower-cased. */
function textContains(json: Uint8Array, from: number, needle: string): boolean {
  const text = JSON.parse(utf8.decode(json.subarray(from, stringEnd(json, from)))) as string;
  return text.toLowerCase().includes(needle);
}

/** The character a JSON escape `\x` stands for, by `x` (the escapes JSON.stringify writes). */
const ESCAPED = new Uint8Array(128);
ESCAPED[0x22] = 0x22; // \"
ESCAPED[0x5c] = 0x5c; // \\
ESCAPED[0x2f] = 0x2f; // \/
ESCAPED[0x62] = 0x08; // \b
ESCAPED[0x66] = 0x0c; // \f
ESCAPED[0x6e] = 0x0a; // \n
ESCAPED[0x72] = 0x0d; // \r
ESCAPED[0x74] = 0x09; // \t

/** Where the value of `arxiv_id` starts: after `{"id":<string>,"arxiv_id":`. */
export function arxivValueAt(json: Uint8Array): number {
  return stringEnd(json, 6) + 12;
}

/**
 * Whether the JSON string literal at `json[from]` is `text` as `JSON.stringify` writes it (how
 * a paper's fields are stored): its bytes compared as they are, without decoding the literal.
 */
export function jsonStringIs(json: Uint8Array, from: number, text: string): boolean {
  if (json[from] !== QUOTE) return false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // A character JSON escapes or encodes in several bytes: the long way.
    if (!jsonKeepsAsIs(c)) return bytesEqual(json, from, jsonStringBytes(text));
    // A shorter literal ends in a quote here, which `c` is not.
    if (json[from + 1 + i] !== c) return false;
  }
  return json[from + 1 + n] === QUOTE;
}

/** An id as the id tables look it up: the bytes it is stored as, and their hash. */
export interface IdKey {
  readonly bytes: Uint8Array;
  readonly hash: number;
}

/** The key of `id` for {@link PaperStore.findIdKey}. */
export function idKey(id: string): IdKey {
  const bytes = jsonStringBytes(id);
  return { bytes, hash: hashBytes(bytes, 0, bytes.length) };
}


function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h ^ (h >>> 16);
}

/**
 * Whether the JSON string literal at `json[at]` holds exactly `key` (its content, escaped). Past
 * the literal's closing quote it reads no further than a mismatch, so `json` may be the whole
 * chunk: the paper's JSON goes on after its id.
 */
function bytesEqual(json: Uint8Array, at: number, key: Uint8Array): boolean {
  // The key is the literal's content: it must be followed by the closing quote.
  if (json[at] !== QUOTE) return false;
  for (let j = 0; j < key.length; j++) if (json[at + 1 + j] !== key[j]) return false;
  return json[at + 1 + key.length] === QUOTE;
}

/**
 * Collects papers' JSON while a catalogue is read; `finish` arranges it in index order.
 * With `expectedBytes` (an estimate of the total), the first chunk starts at that size (from
 * 4 KB up to a full chunk): a write's delta of one paper no longer zeroes a megabyte, which on a
 * virtual machine's first touch of its pages cost more than building the index.
 */
export class PaperStoreBuilder {
  private readonly chunks: Uint8Array[] = [];
  private chunk: Uint8Array;
  private writer: Utf8Writer;
  private used = 0;

  constructor(expectedBytes = 0) {
    this.chunk = uint8Array(expectedBytes > 0 ? Math.min(CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, Math.ceil(expectedBytes))) : FIRST_CHUNK_BYTES);
    this.writer = utf8Writer(this.chunk);
  }
  private readonly chunkOf = new Growable(uint16Array);
  private readonly start = new Growable(uint32Array);
  private readonly length = new Growable(uint32Array);
  private readonly titleAt = new Growable(uint32Array);
  private readonly abstractAt = new Growable(uint32Array);

  get size(): number {
    return this.start.length;
  }

  add(paper: Paper): void {
    const json = serializePaper(paper);
    // A JSON.stringify output holds the raw key `,"title":` only as that key: quotes inside strings are escaped.
    const titleChar = json.indexOf(',"title":') + 9;
    const abstractChar = json.indexOf(',"abstract":', titleChar) + 12;
    const room = this.chunk.length - this.used;
    let bytes = json.length * 3 <= room ? -1 : utf8Length(json, 0, json.length);
    if (bytes > room) {
      // A small first chunk (sized by an estimate) grows up to the default first chunk: the
      // chunks, and so a snapshot's bytes, are those of a store that started at that size.
      if (this.chunks.length === 0 && this.used + bytes <= FIRST_CHUNK_BYTES) this.growChunk(Math.min(FIRST_CHUNK_BYTES, Math.max(2 * this.chunk.length, this.used + bytes)));
      else this.sealChunk(Math.max(Math.min(CHUNK_BYTES, Math.max(this.chunk.length, FIRST_CHUNK_BYTES) * 2), bytes));
    }
    bytes = this.writer(json, this.used);
    let titleAt = titleChar;
    let abstractAt = abstractChar;
    if (bytes !== json.length) {
      titleAt = utf8Length(json, 0, titleChar);
      abstractAt = titleAt + utf8Length(json, titleChar, abstractChar);
    }
    this.chunkOf.push(this.chunks.length);
    this.start.push(this.used);
    this.length.push(bytes);
    this.titleAt.push(titleAt);
    this.abstractAt.push(abstractAt);
    this.used += bytes;
  }

  private growChunk(size: number): void {
    const grown = uint8Array(size);
    grown.set(this.chunk.subarray(0, this.used));
    this.chunk = grown;
    this.writer = utf8Writer(grown);
  }

  private sealChunk(nextSize: number): void {
    if (this.used > 0) this.chunks.push(this.chunk.subarray(0, this.used)); // slack: less than one paper
    this.chunk = uint8Array(nextSize);
    this.writer = utf8Writer(this.chunk);
    this.used = 0;
  }

  /**
   * The store with papers numbered by `order` (`order[d]` = the input position of paper `d`).
   * Throws on a duplicate id.
   */
  finish(order: Uint32Array): PaperStore {
    if (this.used > 0 || this.chunks.length === 0) {
      // Trim the last chunk when much of it is unused (a copy: one more large allocation).
      // The last chunk is copied to its content when more than a little of it is empty (the copy is at most a chunk).
      const slack = this.chunk.length - this.used;
      this.chunks.push(slack > 64 * 1024 ? copyExact(this.chunk, this.used) : this.chunk.subarray(0, this.used));
    }
    this.chunk = new Uint8Array(0);
    const n = order.length;
    const remap = <T extends Uint16Array | Uint32Array>(source: Growable<T>, target: T): T => {
      const from = source.array;
      for (let d = 0; d < n; d++) target[d] = from[order[d]!]!;
      return target;
    };
    // The title and abstract start near the head of a paper's JSON: 16 bits hold their offsets
    // (always in practice; a catalogue where one does not fit keeps 32).
    const narrow = (source: Growable<Uint32Array>) => {
      let max = 0;
      for (let i = 0; i < source.length; i++) max = Math.max(max, source.get(i));
      return max <= 0xffff ? remap(source as unknown as Growable<Uint16Array>, uint16Array(n)) : remap(source, uint32Array(n));
    };
    const chunkOf = remap(this.chunkOf, uint16Array(n));
    const start = remap(this.start, uint32Array(n));
    // A paper's JSON fits in 16 bits in practice too (a catalogue with a longer one keeps 32).
    const length = narrow(this.length);
    const titleAt = narrow(this.titleAt);
    const abstractAt = narrow(this.abstractAt);
    const store = new PaperStore(this.chunks, chunkOf, start, length, titleAt, abstractAt, new Int32Array(0));

    const idTable = int32Array(tableSize(n));
    const idMask = idTable.length - 1;
    for (let d = 0; d < n; d++) {
      const json = store.json(d);
      const end = stringEnd(json, 6);
      let slot = hashBytes(json, 7, end - 1) & idMask;
      for (;;) {
        const other = idTable[slot]! - 1;
        if (other < 0) break;
        const o = store.json(other);
        if (stringEnd(o, 6) === end && sameBytes(o, json, 6, end)) {
          throw new Error(`paperlist: duplicate paper id ${JSON.stringify(readJsonString(json, 6))}`);
        }
        slot = (slot + 1) & idMask;
      }
      idTable[slot] = d + 1;
    }
    return new PaperStore(this.chunks, chunkOf, start, length, titleAt, abstractAt, idTable);
  }
}

function copyExact(chunk: Uint8Array, used: number): Uint8Array {
  const exact = uint8Array(used);
  exact.set(chunk.subarray(0, used));
  return exact;
}

/** Writes a string's UTF-8 at an offset of the target it was made for; returns the bytes written. */
type Utf8Writer = (text: string, at: number) => number;

const textEncoder = new TextEncoder();

/**
 * A UTF-8 writer into `target`: Node's `Buffer.write` where there is one (four times faster
 * than `encodeInto` on a fresh view per paper), else `TextEncoder.encodeInto`.
 */
function utf8Writer(target: Uint8Array): Utf8Writer {
  const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (NodeBuffer !== undefined) {
    const buffer = NodeBuffer.from(target.buffer, target.byteOffset, target.byteLength);
    return (text, at) => buffer.write(text, at, 'utf8');
  }
  return (text, at) => textEncoder.encodeInto(text, target.subarray(at)).written;
}

/** Bytes of the UTF-8 encoding of `text[from, to)` (lone surrogates count as U+FFFD, as encoders write them). */
export function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function tableSize(count: number): number {
  let size = 1024;
  while (size < count * 2) size *= 2;
  return size;
}

function sameBytes(a: Uint8Array, b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * About the bytes of the papers' JSON: their text plus the keys, a little over for escapes
 * and non-ASCII characters. Cheap (lengths only); used to size the store in one allocation.
 */
export function estimateJsonBytes(papers: readonly Paper[]): number {
  let total = 0;
  for (const p of papers) {
    total += 230 + p.id.length + p.url_abs.length + p.url_pdf.length + p.title.length + p.abstract.length;
    total += (p.arxiv_id?.length ?? 0) + (p.nips_id?.length ?? 0) + (p.published?.length ?? 0);
    total += (p.conference?.length ?? 0) + (p.conference_url_abs?.length ?? 0) + (p.conference_url_pdf?.length ?? 0) + (p.proceeding?.length ?? 0);
    for (const name of p.authors) total += name.length + 3;
  }
  return total * 1.02;
}
