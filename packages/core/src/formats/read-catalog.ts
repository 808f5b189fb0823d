import { countBytes } from '../load/count-bytes.js';
import { detectFormat } from '../load/detect-format.js';
import { gunzipIfGzipped } from '../load/gunzip-if-gzipped.js';
import { JsonArraySplitter } from '../load/json-array-splitter.js';
import { JsonLinesSplitter } from '../load/json-lines-splitter.js';
import { openInput } from '../load/open-input.js';
import { PaperLoadError } from '../load/paper-load-error.js';
import type { RawRecord, RecordSplitter } from '../load/raw-record.js';
import { PROGRESS_INTERVAL } from '../load/read-papers.js';
import type { PaperInput, ReadPapersOptions } from '../load/types.js';
import type { Paper } from '../paper.js';
import { createPaperAcceptor, type IdRegistry } from './paper-acceptor.js';
import type { RecordFormat, RecordFormatOption } from './record-format.js';

/** Options of {@link readCatalog}: those of `readPapers`, plus the record format. */
export interface ReadCatalogOptions extends ReadPapersOptions {
  /**
   * `paperlist` records, Papers with Code dump records (`pwc`), or `auto` (the default): told by the
   * keys of the first record (`paper_url` without `id` means PwC).
   */
  format?: RecordFormatOption;
  /** Called once the record format is known. */
  onFormat?: (format: RecordFormat) => void;
  /** Share one registry between several inputs to reject ids repeated across them. */
  ids?: IdRegistry;
}

/**
 * Streams the validated papers of a catalogue whose records are paperlist records or records of the
 * Papers with Code dump `papers-with-abstracts.json(.gz)` (converted with `pwcRecordToPaper`).
 * The layout is the same as `readPapers` reads (JSON Lines or one JSON array, gzip or plain,
 * streamed), and so are the options, progress reports and errors. Elements of a JSON array are
 * named by line and position (`line 1: element 12: ...`), since dumps put a whole array on one line.
 *
 * @example
 * for await (const paper of readCatalog('papers-with-abstracts.json.gz')) index.add(paper);
 */
export async function* readCatalog(input: PaperInput, options: ReadCatalogOptions = {}): AsyncGenerator<Paper, void, undefined> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const opened = openInput(input, signal);
  const file = options.file ?? opened.file;
  const counter = { bytes: 0 };
  const chunks = gunzipIfGzipped(countBytes(opened.chunks, counter))[Symbol.asyncIterator]();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const acceptor = createPaperAcceptor({
    format: options.format ?? 'auto',
    file,
    skipInvalid: options.skipInvalid ?? false,
    onInvalid: options.onInvalid,
    onFormat: options.onFormat,
    ...(options.ids === undefined ? {} : { ids: options.ids }),
  });

  let splitter: RecordSplitter | undefined;
  let isArray = false;
  let elements = 0;
  let leading = '';
  const raw: RawRecord[] = [];
  let records = 0;
  let finished = false;

  try {
    for (;;) {
      let next: IteratorResult<Uint8Array, void>;
      try {
        next = await chunks.next();
      } catch (error) {
        finished = true;
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
        const layout = detectFormat(text);
        if (layout === undefined && !done) {
          leading += text;
          continue;
        }
        isArray = layout === 'json-array';
        splitter = isArray ? new JsonArraySplitter(file) : new JsonLinesSplitter();
        text = leading + text;
        leading = '';
      }
      if (text.length > 0) splitter.push(text, raw);
      if (done) splitter.end(raw);

      for (const record of raw) {
        const where = isArray ? `element ${++elements}` : undefined;
        let value: unknown;
        try {
          value = JSON.parse(record.text);
        } catch (error) {
          acceptor.reject(record.line, `${where === undefined ? '' : `${where}: `}invalid JSON: ${(error as Error).message}`);
          continue;
        }
        const paper = acceptor.accept(value, record.line, where);
        if (paper === undefined) continue;
        records++;
        if (onProgress !== undefined && records % PROGRESS_INTERVAL === 0) onProgress({ records, bytes: counter.bytes });
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

/**
 * {@link readCatalog} for the Papers with Code dump `papers-with-abstracts.json(.gz)`: every record
 * must be a PwC record.
 */
export function readPwcPapers(input: PaperInput, options: Omit<ReadCatalogOptions, 'format'> = {}): AsyncGenerator<Paper, void, undefined> {
  return readCatalog(input, { ...options, format: 'pwc' });
}

function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code === 'ERR_ENCODING_INVALID_ENCODED_DATA');
}

function asLoadError(error: unknown, line: number, file: string | undefined): unknown {
  if (!isDataError(error)) return error;
  const code = (error as { code: string }).code;
  const reason =
    code === 'ERR_ENCODING_INVALID_ENCODED_DATA' ? 'the input is not valid UTF-8' : `corrupt gzip data: ${(error as Error).message}`;
  return new PaperLoadError(reason, line, file, { cause: error });
}
