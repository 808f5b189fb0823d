/**
 * A catalogue could not be loaded: a bad record, invalid JSON, a duplicate id, or a malformed file.
 * The message reads like `papers.jsonl line 17: field "published": expected a real date YYYY-MM-DD, got "2019-02-30"`.
 */
export class PaperLoadError extends Error {
  override readonly name = 'PaperLoadError';
  /** 1-based line of the problem (the line where the bad record starts). */
  readonly line: number;
  /** What is wrong, without the location. */
  readonly reason: string;
  /** The file (or input name), when known. */
  readonly file: string | undefined;

  constructor(reason: string, line: number, file?: string, options?: ErrorOptions) {
    super(`${file === undefined ? '' : `${file} `}line ${line}: ${reason}`, options);
    this.line = line;
    this.reason = reason;
    this.file = file;
  }
}
