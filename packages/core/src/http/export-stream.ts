import { toJsonBytes, toPaper } from '../encoded-paper.js';
import type { ListRequest } from '../query/parse-list-query.js';
import { projectFields } from '../query/project-fields.js';
import { positionOf } from '../pagination/cursor.js';
import { concatBytes } from './bytes.js';
import type { OrderKey, PaperQuery, PaperSource, SourceCallOptions } from '../source.js';

/** Papers asked of the source at a time: one chunk of the stream (about 1.3 MB of JSON). */
export const EXPORT_PAGE = 1000;

const NEWLINE = new Uint8Array([0x0a]);

/**
 * Every paper matching a list request, one JSON object per line, in its ordering: a cursor walk
 * of the source, one page per chunk, each page asked for only when the previous chunk was taken.
 * Memory stays at one page whatever the catalogue's size, and, as in any cursor walk, a paper
 * that is in the catalogue throughout comes exactly once even if it changes meanwhile.
 */
export async function* exportLines(
  source: PaperSource,
  list: ListRequest,
  keys: readonly OrderKey[],
  call: <T>(run: (options: SourceCallOptions) => Promise<T>) => Promise<T>,
): AsyncGenerator<Uint8Array> {
  const query: PaperQuery = { terms: list.terms, filters: list.filters, ordering: list.ordering, offset: 0, limit: EXPORT_PAGE };
  for (;;) {
    const { results } = await call((options) => source.list(query, options));
    if (results.length === 0) return;
    const parts: Uint8Array[] = [];
    for (const record of results) parts.push(list.fields === null ? toJsonBytes(record) : projectFields(record, list.fields), NEWLINE);
    yield concatBytes(parts);
    if (results.length < EXPORT_PAGE) return;
    query.after = positionOf(toPaper(results[results.length - 1]!), keys);
  }
}
