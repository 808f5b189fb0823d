import type { Readable } from 'node:stream';
import type { Paper } from '../paper.js';

/** Where a catalogue comes from: a file path, a Node `Readable`, or any async iterable of bytes. */
export type PaperInput = string | Readable | AsyncIterable<Uint8Array>;

/** A record that was skipped because of `skipInvalid`: its 1-based line and why it was rejected. */
export interface LoadProblem {
  line: number;
  reason: string;
}

/** Progress of a load: papers accepted so far and (compressed) bytes read from the input so far. */
export interface LoadProgress {
  records: number;
  bytes: number;
}

/** Options of {@link readPapers} and {@link loadPapers}. */
export interface ReadPapersOptions {
  /** Skip bad records (invalid JSON, invalid record, duplicate id) instead of throwing on the first one. */
  skipInvalid?: boolean;
  /** Called for each record skipped because of `skipInvalid`. */
  onInvalid?: (problem: LoadProblem) => void;
  /** Called every 10,000 accepted papers and once at the end. */
  onProgress?: (progress: LoadProgress) => void;
  /** Aborts the load: reading stops and the generator throws `signal.reason`. */
  signal?: AbortSignal;
  /** Name of the input in error messages; defaults to the path when `input` is a path or a file stream. */
  file?: string;
}

/** What {@link loadPapers} returns: the accepted papers, in input order, and how many records were skipped. */
export interface LoadResult {
  papers: Paper[];
  skipped: number;
}
