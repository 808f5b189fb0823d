import type { Paper } from '../paper.js';
import { validatePaper } from '../paper-schema.js';
import { inputFile } from './open-input.js';
import { PaperLoadError } from './paper-load-error.js';
import type { RawRecord } from './raw-record.js';
import { readRecords } from './read-records.js';
import type { PaperInput, ReadPapersOptions } from './types.js';

/** `onProgress` is called after this many accepted papers (and at the end). */
export const PROGRESS_INTERVAL = 10_000;

/**
 * Streams the validated papers of a catalogue, in input order, without holding the file in memory.
 *
 * The input may be gzip-compressed (detected by its magic bytes) and is either a JSON array of
 * records (its first non-whitespace character, after an optional BOM, is `[`) or JSON Lines (one
 * record per line; blank lines are skipped, CRLF is fine). Every record must pass
 * {@link validatePaper} and have an id not seen before.
 *
 * @throws {PaperLoadError} on the first bad record (unless `skipInvalid`), and always on a malformed
 *   JSON array, corrupt gzip data or invalid UTF-8. I/O errors and `signal.reason` are thrown as they are.
 * @example
 * for await (const paper of readPapers('papers.jsonl.gz', { onProgress: ({ records }) => log(records) })) {
 *   index.add(paper);
 * }
 */
export async function* readPapers(
  input: PaperInput,
  options: ReadPapersOptions = {},
): AsyncGenerator<Paper, void, undefined> {
  const { signal, skipInvalid = false, onInvalid, onProgress } = options;
  const file = options.file ?? inputFile(input);
  const firstLineOfId = new Map<string, number>();
  let records = 0;
  let bytes = 0;

  const reject = (line: number, reason: string): undefined => {
    if (!skipInvalid) throw new PaperLoadError(reason, line, file);
    onInvalid?.({ line, reason });
    return undefined;
  };

  const accept = (record: RawRecord): Paper | undefined => {
    let value: unknown;
    try {
      value = JSON.parse(record.text);
    } catch (error) {
      return reject(record.line, `invalid JSON: ${(error as Error).message}`);
    }
    const result = validatePaper(value);
    if (!result.ok) return reject(record.line, result.reason);
    const { id } = result.paper;
    const firstLine = firstLineOfId.get(id);
    if (firstLine !== undefined) {
      return reject(record.line, `duplicate id ${JSON.stringify(id)} (first seen on line ${firstLine})`);
    }
    firstLineOfId.set(id, record.line);
    return result.paper;
  };

  for await (const batch of readRecords(input, { signal, file })) {
    bytes = batch.bytes;
    for (const record of batch.records) {
      const paper = accept(record);
      if (paper === undefined) continue;
      records++;
      if (onProgress !== undefined && records % PROGRESS_INTERVAL === 0) onProgress({ records, bytes });
      yield paper;
    }
  }
  onProgress?.({ records, bytes });
}
