import { toJsonBytes, toPaper } from '../encoded-paper.js';
import type { ListRequest } from '../query/parse-list-query.js';
import { projectFields } from '../query/project-fields.js';
import { positionOf } from '../pagination/cursor.js';
import { concatBytes } from './bytes.js';
import { refusalCode } from '../source-errors.js';
import type { OrderKey, PaperQuery, PaperSource, SourceCallOptions } from '../source.js';

/** Papers asked of the source at a time: one chunk of the stream (about 1.3 MB of JSON). */
export const EXPORT_PAGE = 1000;

const NEWLINE = new Uint8Array([0x0a]);

/** The pause before a refused page is asked for again. */
const RETRY_PAUSE_MS = 200;

/**
 * Every paper matching a list request, one JSON object per line, in its ordering: a cursor walk
 * of the source, one page per chunk. The first page is read before this resolves, so that a
 * source that cannot answer (over its budget, overloaded) is answered with its error status, not
 * with a `200` cut short. The next page is asked for as soon as a page arrives, so that the source
 * finds it while this one is sent (over a socket the wait for the client to take a chunk is most
 * of the time); no further one until this chunk is taken. Memory stays at two pages whatever the
 * catalogue's size, and, as in any cursor walk, a paper that is in the catalogue throughout comes
 * exactly once even if it changes meanwhile.
 */
export async function exportLines(
  source: PaperSource,
  list: ListRequest,
  keys: readonly OrderKey[],
  call: <T>(run: (options: SourceCallOptions) => Promise<T>) => Promise<T>,
): Promise<AsyncIterable<Uint8Array>> {
  const pageAfter = (after: PaperQuery['after']) => {
    const query: PaperQuery = { terms: list.terms, filters: list.filters, ordering: list.ordering, offset: 0, limit: EXPORT_PAGE, ...(after === undefined ? {} : { after }) };
    return call((options) => source.list(query, options));
  };
  // A later page refused (over its budget, the source busy) is asked for once more after a pause:
  // one slow moment should not cut an export that has been streaming for a while.
  const laterPage = (after: PaperQuery['after']) =>
    pageAfter(after).catch(async (error: unknown) => {
      if (refusalCode(error) === null) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
      return pageAfter(after);
    });
  const first = await pageAfter(undefined);
  return (async function* () {
    let coming = Promise.resolve(first);
    for (;;) {
      const { results } = await coming;
      const last = results.length === EXPORT_PAGE ? results[results.length - 1]! : null;
      if (last !== null) {
        coming = laterPage(positionOf(toPaper(last), keys));
        // Its failure is thrown when it is awaited; until then (or if the reader stops first) it is not unhandled.
        coming.catch(() => {});
      }
      if (results.length > 0) {
        const parts: Uint8Array[] = [];
        for (const record of results) parts.push(list.fields === null ? toJsonBytes(record) : projectFields(record, list.fields), NEWLINE);
        yield concatBytes(parts);
      }
      if (last === null) return;
    }
  })();
}
