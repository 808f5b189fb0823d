import { serializePaper, type Paper } from './paper.js';

const utf8 = new TextEncoder();
const ENCODED_PAPER = Symbol.for('paperlist.EncodedPaper');
const utf8Decoder = new TextDecoder();

/**
 * A paper already encoded as the exact JSON bytes a response carries. A source may return
 * these instead of {@link Paper} objects: the core then copies the bytes into the response
 * unchanged, and only parses them when a caller asks for the object.
 */
export class EncodedPaper {
  /** Brands instances, so two copies of this package (a bundle and a dependency) still recognise each other's. */
  readonly [ENCODED_PAPER] = true;

  /** @param id the paper's id. @param json compact UTF-8 JSON, fields in canonical order. */
  constructor(
    readonly id: string,
    readonly json: Uint8Array,
  ) {}

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
