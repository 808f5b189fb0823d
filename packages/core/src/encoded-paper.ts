import { serializePaper, type Paper } from './paper.js';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * A paper already encoded as the exact JSON bytes a response carries. A source may return
 * these instead of {@link Paper} objects: the core then copies the bytes into the response
 * unchanged, and only parses them when a caller asks for the object.
 */
export class EncodedPaper {
  /** @param id the paper's id. @param json compact UTF-8 JSON, fields in canonical order. */
  constructor(
    readonly id: string,
    readonly json: Uint8Array,
  ) {}

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
  return record instanceof EncodedPaper ? record.toPaper() : record;
}

/** The JSON bytes of a record, encoding it when it is an object. */
export function toJsonBytes(record: PaperRecord): Uint8Array {
  return record instanceof EncodedPaper ? record.json : utf8.encode(serializePaper(record));
}
