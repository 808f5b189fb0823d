import { inputFile } from '../load/open-input.js';
import { PROGRESS_INTERVAL } from '../load/read-papers.js';
import { readRecords } from '../load/read-records.js';
import type { PaperInput, ReadPapersOptions } from '../load/types.js';
import type { Paper } from '../paper.js';
import type { PaperAnnotations } from '../annotations/annotations.js';
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
  /**
   * Filled with the `tasks` and `methods` of Papers with Code records, by paper id (see
   * `PaperAnnotations`); pass it on to a source's `annotations` option.
   */
  annotations?: Map<string, PaperAnnotations>;
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
  const file = options.file ?? inputFile(input);
  const acceptor = createPaperAcceptor({
    format: options.format ?? 'auto',
    file,
    skipInvalid: options.skipInvalid ?? false,
    onInvalid: options.onInvalid,
    onFormat: options.onFormat,
    ...(options.ids === undefined ? {} : { ids: options.ids }),
    ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
  });
  let elements = 0;
  let records = 0;
  let bytes = 0;
  for await (const batch of readRecords(input, { signal, file })) {
    bytes = batch.bytes;
    for (const record of batch.records) {
      const where = batch.isArray ? `element ${++elements}` : undefined;
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
      if (onProgress !== undefined && records % PROGRESS_INTERVAL === 0) onProgress({ records, bytes });
      yield paper;
    }
  }
  onProgress?.({ records, bytes });
}

/**
 * {@link readCatalog} for the Papers with Code dump `papers-with-abstracts.json(.gz)`: every record
 * must be a PwC record.
 */
export function readPwcPapers(input: PaperInput, options: Omit<ReadCatalogOptions, 'format'> = {}): AsyncGenerator<Paper, void, undefined> {
  return readCatalog(input, { ...options, format: 'pwc' });
}

