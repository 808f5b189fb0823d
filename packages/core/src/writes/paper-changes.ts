import type { Paper } from '../paper.js';
import type { PaperSource, SourceCallOptions } from '../source.js';

/** One change of a write batch: store a paper (insert or replace by `id`), or delete one by id. */
export type PaperChange = { op: 'upsert'; paper: Paper } | { op: 'delete'; id: string };

/** What a write batch did, counted change by change in batch order. */
export interface WriteResult {
  /** Upserts of an id that was not in the catalogue (at that point of the batch). */
  created: number;
  /** Upserts of an id that was. */
  updated: number;
  /** Deletes of an id that was; deleting an absent id counts nowhere. */
  deleted: number;
}

/**
 * A source that takes writes. `write` applies a batch in order, all or nothing, and resolves
 * once the change is visible: a request that starts after it resolves sees it, and a request in
 * flight sees the catalogue wholly before or wholly after the batch. `version()` moves with it.
 */
export interface WritableSource extends PaperSource {
  /** Applies `changes` in order as one atomic batch (the papers must already be valid). */
  write(changes: readonly PaperChange[], options?: SourceCallOptions): Promise<WriteResult>;
}

/** Whether `source` takes writes (has a `write` method). */
export function isWritableSource(source: PaperSource): source is WritableSource {
  return typeof (source as Partial<WritableSource>).write === 'function';
}

/** A write batch holding a paper that is not a valid {@link Paper}: nothing of it was applied. */
export class InvalidChangeError extends TypeError {
  constructor(
    /** Index of the first invalid change in the batch. */
    readonly position: number,
    /** Why it is invalid (see `validatePaper`). */
    readonly reason: string,
  ) {
    super(`paperlist: change ${position} of the batch is not a valid paper: ${reason}`);
    this.name = 'InvalidChangeError';
  }
}
