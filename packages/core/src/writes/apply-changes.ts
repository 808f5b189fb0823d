import type { Paper } from '../paper.js';
import type { PaperChange, WriteResult } from './paper-changes.js';

/**
 * The net effect of a batch on a catalogue: for every id it touches, the paper it ends with
 * (`null`: deleted), and the batch's counts, each change counted against the catalogue as the
 * changes before it left it. `has` tells whether an id is in the catalogue before the batch.
 */
export function netChanges(changes: readonly PaperChange[], has: (id: string) => boolean): { final: Map<string, Paper | null>; result: WriteResult } {
  const final = new Map<string, Paper | null>();
  const result: WriteResult = { created: 0, updated: 0, deleted: 0 };
  const present = (id: string) => (final.has(id) ? final.get(id) !== null : has(id));
  for (const change of changes) {
    if (change.op === 'upsert') {
      if (present(change.paper.id)) result.updated++;
      else result.created++;
      final.set(change.paper.id, change.paper);
    } else {
      if (present(change.id)) result.deleted++;
      final.set(change.id, null);
    }
  }
  return { final, result };
}

/**
 * Places a stream of papers under a batch's net changes: each paper comes out replaced, dropped
 * (`null`) or as it is; `rest` is the new papers, in the order they were first written.
 */
function placer(final: ReadonlyMap<string, Paper | null>) {
  const placed = new Set<string>();
  return {
    place(paper: Paper): Paper | null {
      if (!final.has(paper.id)) return paper;
      placed.add(paper.id);
      return final.get(paper.id) ?? null;
    },
    rest(): Paper[] {
      return [...final].filter(([id, next]) => next !== null && !placed.has(id)).map(([, next]) => next!);
    },
  };
}

/**
 * The papers of a catalogue after a batch's net changes: replaced papers keep their place,
 * deleted ones go, new ones follow in the order they were first written.
 */
export function* papersAfter(papers: Iterable<Paper>, final: ReadonlyMap<string, Paper | null>): Generator<Paper> {
  const changes = placer(final);
  for (const paper of papers) {
    const next = changes.place(paper);
    if (next !== null) yield next;
  }
  yield* changes.rest();
}

/** {@link papersAfter} over a stream of papers: the stream's papers with the net changes applied, new ones at the end. */
export async function* papersAfterStream(papers: AsyncIterable<Paper>, final: ReadonlyMap<string, Paper | null>): AsyncGenerator<Paper> {
  const changes = placer(final);
  for await (const paper of papers) {
    const next = changes.place(paper);
    if (next !== null) yield next;
  }
  yield* changes.rest();
}
