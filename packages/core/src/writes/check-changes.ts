import { validatePaper } from '../paper-schema.js';
import type { Paper } from '../paper.js';
import { InvalidChangeError, type PaperChange } from './paper-changes.js';

/** Throws {@link InvalidChangeError} for the first change that is not a valid upsert or delete. */
export function checkChanges(changes: readonly PaperChange[]): void {
  changes.forEach((change, position) => {
    if (change.op === 'delete') {
      if (typeof change.id !== 'string') throw new InvalidChangeError(position, 'the id to delete must be a string');
      return;
    }
    if (change.op !== 'upsert') throw new InvalidChangeError(position, `unknown operation ${JSON.stringify((change as { op: unknown }).op)}`);
    const checked = validatePaper(change.paper);
    if (!checked.ok) throw new InvalidChangeError(position, checked.reason);
  });
}

/** Upserts of `papers`, as a batch. */
export function upserts(papers: readonly Paper[]): PaperChange[] {
  return papers.map((paper) => ({ op: 'upsert', paper }));
}

/** Deletes of `ids`, as a batch. */
export function deletes(ids: readonly string[]): PaperChange[] {
  return ids.map((id) => ({ op: 'delete', id }));
}
