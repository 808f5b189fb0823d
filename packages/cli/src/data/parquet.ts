import { detectRecordFormat, PAPER_FIELDS, PWC_FIELDS, type Paper, type PaperAnnotations, type RecordFormat, type RecordFormatOption } from '@paperlist/core';
import { createPaperAcceptor, PaperLoadError, type IdRegistry, type LoadProblem, type LoadProgress } from '@paperlist/core/node';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

/** Options of {@link readParquetPapers}; the same meaning as for `readCatalog`. */
export interface ReadParquetOptions {
  format?: RecordFormatOption;
  file?: string;
  skipInvalid?: boolean;
  onInvalid?: (problem: LoadProblem) => void;
  onProgress?: (progress: LoadProgress) => void;
  onFormat?: (format: RecordFormat) => void;
  ids?: IdRegistry;
  signal?: AbortSignal;
  /** Filled with the `tasks` and `methods` of PwC rows, by paper id (those columns are read only then). */
  annotations?: Map<string, PaperAnnotations>;
}

/** How often (in rows) progress is reported inside a row group. */
const PROGRESS_ROWS = 10_000;

/**
 * Streams the validated papers of a Parquet file whose rows are Papers with Code records (the
 * form the PwC archive is distributed in) or paperlist records, one row group at a time, through
 * hyparquet (pure JavaScript; every Parquet codec through hyparquet-compressors). The format is told
 * by the column names unless given. Rows are numbered from 1 in errors (`papers.parquet row 12: ...`).
 * Progress `bytes` are the compressed bytes of the row groups read so far.
 */
export async function* readParquetPapers(path: string, options: ReadParquetOptions = {}): AsyncGenerator<Paper, void, undefined> {
  const { signal, onProgress } = options;
  const file = options.file ?? path;
  const buffer = await asyncBufferFromFile(path);
  const metadata = await readMetadata(buffer, file);
  const columnNames = parquetSchema(metadata).children.map((child) => child.element.name);
  const format = options.format === undefined || options.format === 'auto' ? detectRecordFormat(columnNames) : options.format;
  const wanted: readonly string[] = format === 'pwc' ? [...PWC_FIELDS, ...(options.annotations === undefined ? [] : ['tasks', 'methods'])] : PAPER_FIELDS;
  const columns = wanted.filter((name) => columnNames.includes(name));
  const acceptor = createPaperAcceptor({
    format,
    file,
    unit: 'row',
    skipInvalid: options.skipInvalid ?? false,
    onInvalid: options.onInvalid,
    onFormat: options.onFormat,
    ...(options.ids === undefined ? {} : { ids: options.ids }),
    ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
  });

  let rowStart = 0;
  let bytesBefore = 0;
  let records = 0;
  for (const group of metadata.row_groups) {
    signal?.throwIfAborted();
    const rows = Number(group.num_rows);
    const groupBytes = Number(group.total_compressed_size ?? 0n);
    let objects: Record<string, unknown>[];
    try {
      objects = await parquetReadObjects({ file: buffer, columns, rowStart, rowEnd: rowStart + rows, compressors });
    } catch (error) {
      throw new PaperLoadError(`cannot decode the row group at row ${rowStart + 1}: ${(error as Error).message}`, rowStart + 1, file, {
        cause: error,
      });
    }
    for (let i = 0; i < objects.length; i++) {
      const paper = acceptor.accept(normalizeRow(objects[i]!), rowStart + i + 1);
      if (paper === undefined) continue;
      records++;
      if (onProgress !== undefined && records % PROGRESS_ROWS === 0) {
        onProgress({ records, bytes: Math.min(buffer.byteLength, bytesBefore + Math.round((groupBytes * (i + 1)) / rows)) });
      }
      yield paper;
    }
    rowStart += rows;
    bytesBefore += groupBytes;
  }
  onProgress?.({ records, bytes: buffer.byteLength });
}

async function readMetadata(buffer: AsyncBuffer, file: string): Promise<FileMetaData> {
  try {
    return await parquetMetadataAsync(buffer);
  } catch (error) {
    throw new PaperLoadError(`not a readable Parquet file: ${(error as Error).message}`, 1, file, { cause: error });
  }
}

/** Parquet values as JSON would have them: dates as `YYYY-MM-DD`, big integers as numbers, nothing undefined. */
function normalizeRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(row)) {
    const value = row[key];
    if (value === undefined) row[key] = null;
    else if (value instanceof Date) row[key] = Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
    else if (typeof value === 'bigint') row[key] = Number(value);
  }
  return row;
}
