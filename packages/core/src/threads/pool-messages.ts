import type { IndexParts } from '../engine/index-parts.js';
import type { PageJson } from '../engine/page-json.js';
import type { InterruptReason } from '../engine/work-budget.js';
import type { PaperQuery } from '../source.js';
import type { FacetCounts } from '../facets/facet-types.js';

/** What a query thread starts with. */
export interface ThreadData {
  parts: IndexParts;
  /** Shared cancel flags, one slot per thread: the token of the query to stop. */
  cancel: Int32Array;
  slot: number;
}

/** Messages from the pool to a query thread. */
export type ToThread =
  | { type: 'load'; parts: IndexParts }
  | { type: 'list'; id: number; query: PaperQuery; budgetMs: number; token: number };

/** A query thread's answer to one `list` message. */
export type ToPool =
  | { id: number; count: number; page: PageJson; facets?: FacetCounts }
  | { id: number; interrupted: InterruptReason }
  | { id: number; error: string };
