import { readJsonString } from './engine/json-string-read.js';
import { serializePaper, type Paper } from './paper.js';

const utf8 = new TextEncoder();
const ENCODED_PAPER = Symbol.for('paperlist.EncodedPaper');
const utf8Decoder = new TextDecoder();
/** Where the id's string starts in a paper's canonical JSON: after `{"id":`. */
const ID_VALUE_AT = 6;

/**
 * A paper already encoded as the exact JSON bytes a response carries. A source may return
 * these instead of {@link Paper} objects: the core then copies the bytes into the response
 * unchanged, and only parses them when a caller asks for the object.
 */
export class EncodedPaper {
  /** Brands instances, so two copies of this package (a bundle and a dependency) still recognise each other's. */
  readonly [ENCODED_PAPER] = true;

  #id: string | undefined;

  /**
   * @param id the paper's id, or undefined to read it from `json` when first asked (a page's
   * papers: most answers never ask). @param json compact UTF-8 JSON, fields in canonical order
   * (so it starts `{"id":"…"`).
   */
  constructor(
    id: string | undefined,
    readonly json: Uint8Array,
  ) {
    this.#id = id;
  }

  /** The paper's id. */
  get id(): string {
    return (this.#id ??= readJsonString(this.json, ID_VALUE_AT));
  }

  /** Whether `record` is an encoded paper (from any copy of this package). */
  static is(record: unknown): record is EncodedPaper {
    return typeof record === 'object' && record !== null && (record as { [ENCODED_PAPER]?: unknown })[ENCODED_PAPER] === true;
  }

  /** Encodes a paper once, for sources that keep the bytes. */
  static fromPaper(paper: Paper): EncodedPaper {
    return new EncodedPaper(paper.id, utf8.encode(serializePaper(paper)));
  }

  /** The paper as an object (parses the bytes). */
  toPaper(): Paper {
    return JSON.parse(utf8Decoder.decode(this.json)) as Paper;
  }
}

/** What a source may hand back for one paper. */
export type PaperRecord = Paper | EncodedPaper;

/** The paper object behind a record, decoding it when it is pre-encoded. */
export function toPaper(record: PaperRecord): Paper {
  return EncodedPaper.is(record) ? record.toPaper() : record;
}

/** The JSON bytes of a record, encoding it when it is an object. */
export function toJsonBytes(record: PaperRecord): Uint8Array {
  return EncodedPaper.is(record) ? record.json : utf8.encode(serializePaper(record));
}
