import type { Paper } from '../paper.js';
import { validatePaper } from '../paper-schema.js';
import { countBytes } from './count-bytes.js';
import { detectFormat } from './detect-format.js';
import { gunzipIfGzipped } from './gunzip-if-gzipped.js';
import { JsonArraySplitter } from './json-array-splitter.js';
import { JsonLinesSplitter } from './json-lines-splitter.js';
import { openInput } from './open-input.js';
import { PaperLoadError } from './paper-load-error.js';
import type { RawRecord, RecordSplitter } from './raw-record.js';
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
  signal?.throwIfAborted();
  const opened = openInput(input, signal);
  const file = options.file ?? opened.file;
  const counter = { bytes: 0 };
  const chunks = gunzipIfGzipped(countBytes(opened.chunks, counter))[Symbol.asyncIterator]();
  const decoder = new TextDecoder('utf-8', { fatal: true });

  let splitter: RecordSplitter | undefined;
  let leading = ''; // whitespace read before the format is known
  const firstLineOfId = new Map<string, number>();
  const raw: RawRecord[] = [];
  let records = 0;
  let finished = false;

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

  try {
    for (;;) {
      let next: IteratorResult<Uint8Array, void>;
      try {
        next = await chunks.next();
      } catch (error) {
        finished = true; // a generator that threw is closed
        throw asLoadError(error, splitter?.line ?? 1, file);
      }
      signal?.throwIfAborted();
      const done = next.done === true;
      let text: string;
      try {
        text = next.done === true ? decoder.decode() : decoder.decode(next.value, { stream: true });
      } catch (error) {
        throw asLoadError(error, splitter?.line ?? 1, file);
      }
      if (done) finished = true;

      if (splitter === undefined) {
        const format = detectFormat(text);
        if (format === undefined && !done) {
          leading += text;
          continue;
        }
        splitter = format === 'json-array' ? new JsonArraySplitter(file) : new JsonLinesSplitter();
        text = leading + text;
        leading = '';
      }
      if (text.length > 0) splitter.push(text, raw);
      if (done) splitter.end(raw);

      for (const record of raw) {
        const paper = accept(record);
        if (paper === undefined) continue;
        records++;
        if (onProgress !== undefined && records % PROGRESS_INTERVAL === 0) {
          onProgress({ records, bytes: counter.bytes });
        }
        yield paper;
      }
      raw.length = 0;
      if (done) break;
    }
    onProgress?.({ records, bytes: counter.bytes });
  } finally {
    if (!finished) await chunks.return?.();
  }
}

/** Errors of the bytes themselves: corrupt gzip data or invalid UTF-8. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code === 'ERR_ENCODING_INVALID_ENCODED_DATA');
}

function asLoadError(error: unknown, line: number, file: string | undefined): unknown {
  if (!isDataError(error)) return error;
  const code = (error as { code: string }).code;
  const reason =
    code === 'ERR_ENCODING_INVALID_ENCODED_DATA'
      ? 'the input is not valid UTF-8'
      : `corrupt gzip data: ${(error as Error).message}`;
  return new PaperLoadError(reason, line, file, { cause: error });
}
