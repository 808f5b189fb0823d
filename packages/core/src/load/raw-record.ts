/** The source text of one record and the 1-based line where it starts. */
export interface RawRecord {
  text: string;
  line: number;
}

/** Cuts decoded text, fed chunk by chunk, into the source text of individual records. */
export interface RecordSplitter {
  /** The 1-based line reached so far (for errors that are not about one record). */
  readonly line: number;
  /** Consumes the next chunk of text and appends the records it completes to `out`. */
  push(text: string, out: RawRecord[]): void;
  /** Signals the end of the input and appends the last record, if any, to `out`. */
  end(out: RawRecord[]): void;
}
