import type { TermPostings } from '../posting-merge.js';

/**
 * One merge job for a merge thread: the words' lists packed into one transferred buffer
 * (`data`), list `i` being `data[offsets[i]..offsets[i + 1])` with `dfs[i]` entries. One fresh
 * buffer rather than the rows' own: the driver's Buffers are views into buffers it reuses, which
 * transferring would take away from it.
 */
export interface MergeRequest {
  id: number;
  words: string[];
  dfs: Int32Array;
  offsets: Float64Array;
  data: ArrayBuffer;
  prefix: string | null;
}

/** A merge thread's answer: the merged lists (their buffers transferred), or why it failed. */
export type MergeReply = { id: number; postings: TermPostings } | { id: number; error: string };
