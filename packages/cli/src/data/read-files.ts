import { type PaperAnnotations, type Paper, type RecordFormat, type RecordFormatOption } from '@paperlist/core';
import { IdRegistry, readCatalog, type LoadProblem } from '@paperlist/core/node';
import { fileError } from '../cli-error.js';
import type { CatalogInput } from './inputs.js';

/** Options of {@link readCatalogFile}. */
export interface ReadFileOptions {
  /** Record format: `auto` (the default) tells PwC from paperlist records by the keys of the first record. */
  format?: RecordFormatOption;
  skipInvalid?: boolean;
  onInvalid?: (problem: LoadProblem) => void;
  /** Papers accepted and bytes read so far in this file. */
  onProgress?: (records: number, bytes: number) => void;
  onFormat?: (format: RecordFormat) => void;
  /** Shared between files to reject ids repeated across them. */
  ids?: IdRegistry;
  signal?: AbortSignal;
  /** Filled with the tasks and methods of Papers with Code records, by paper id. */
  annotations?: Map<string, PaperAnnotations>;
}

/** The papers of one catalogue file, JSON or Parquet, streamed and validated. */
export async function* readCatalogFile(input: CatalogInput, options: ReadFileOptions = {}): AsyncGenerator<Paper, void, undefined> {
  const common = {
    file: input.name,
    format: options.format ?? 'auto',
    skipInvalid: options.skipInvalid ?? false,
    ...(options.onInvalid === undefined ? {} : { onInvalid: options.onInvalid }),
    ...(options.onFormat === undefined ? {} : { onFormat: options.onFormat }),
    ...(options.ids === undefined ? {} : { ids: options.ids }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
    ...(options.onProgress === undefined
      ? {}
      : { onProgress: ({ records, bytes }: { records: number; bytes: number }) => options.onProgress!(records, bytes) }),
  };
  try {
    if (input.kind === 'parquet') {
      // Loaded only for Parquet files: the reader and its codecs cost every other start 115 ms and 1.7 MB of heap.
      const { readParquetPapers } = await import('./parquet.js');
      yield* readParquetPapers(input.path, common);
    } else {
      yield* readCatalog(input.path, common);
    }
  } catch (error) {
    throw fileError(error, input.name) ?? error;
  }
}

/** Progress over several files. */
export interface FilesProgress {
  /** The file being read, and its index. */
  input: CatalogInput;
  index: number;
  /** Papers accepted so far, over all files. */
  records: number;
  /** Bytes read so far, over all files. */
  bytes: number;
}

/** Options of {@link readCatalogFiles}. */
export interface ReadFilesOptions extends Omit<ReadFileOptions, 'onProgress' | 'onInvalid' | 'onFormat' | 'ids'> {
  onInvalid?: (input: CatalogInput, problem: LoadProblem) => void;
  onProgress?: (progress: FilesProgress) => void;
  onFileStart?: (input: CatalogInput, index: number) => void;
  onFileEnd?: (input: CatalogInput, stats: { records: number; skipped: number; format: RecordFormat | undefined }) => void;
}

/**
 * The papers of several catalogue files, one after the other, as one catalogue: an id repeated
 * across files is an error naming both places.
 */
export async function* readCatalogFiles(inputs: readonly CatalogInput[], options: ReadFilesOptions = {}): AsyncGenerator<Paper, void, undefined> {
  const ids = new IdRegistry();
  let recordsBefore = 0;
  let bytesBefore = 0;
  for (const [index, input] of inputs.entries()) {
    options.onFileStart?.(input, index);
    let records = 0;
    let skipped = 0;
    let format: RecordFormat | undefined;
    const { onInvalid, onProgress } = options;
    const papers = readCatalogFile(input, {
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.skipInvalid === undefined ? {} : { skipInvalid: options.skipInvalid }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
      ids,
      onFormat: (f) => (format = f),
      onInvalid: (problem) => {
        skipped++;
        onInvalid?.(input, problem);
      },
      onProgress: (fileRecords, bytes) => {
        records = fileRecords;
        onProgress?.({ input, index, records: recordsBefore + fileRecords, bytes: bytesBefore + bytes });
      },
    });
    for await (const paper of papers) yield paper;
    recordsBefore += records;
    bytesBefore += input.size;
    options.onFileEnd?.(input, { records, skipped, format });
  }
}
