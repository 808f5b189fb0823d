import type { IndexParts } from '../engine/index-parts.js';
import type { PageJson } from '../engine/page-json.js';
import type { InterruptReason } from '../engine/work-budget.js';
import type { PaperQuery } from '../source.js';
import type { FacetCounts } from '../facets/facet-types.js';
import type { LiveDocs } from '../segments/segment.js';

/**
 * A segment as it crosses to a query thread: its index's parts the first time the thread sees
 * it (shared memory: nothing is copied), only its id afterwards, and its live bitset.
 */
export interface SegmentMessage {
  id: number;
  parts?: IndexParts;
  live: LiveDocs | null;
}

/** What a query thread starts with. */
export interface ThreadData {
  segments: SegmentMessage[];
  /** Shared cancel flags, one slot per thread: the token of the query to stop. */
  cancel: Int32Array;
  slot: number;
}

/** Messages from the pool to a query thread. */
export type ToThread =
  | { type: 'load'; segments: SegmentMessage[] }
  | { type: 'list'; id: number; query: PaperQuery; budgetMs: number; token: number }
  /** A page's buffer handed back once its response was written (transferred), for the next pages. */
  | { type: 'recycle'; buffer: ArrayBuffer };

/** A query thread's answer to one `list` message. */
export type ToPool =
  | { id: number; count: number; page: PageJson; facets?: FacetCounts }
  | { id: number; interrupted: InterruptReason }
  | { id: number; error: string };
