import type { AnnotationMap, Paper, PaperAnnotations, RecordFormatOption } from '@paperlist/core';
import { formatCount, type Logger } from '../log.js';
import { CatalogProgress, type ProgressMode } from '../progress.js';
import type { CatalogInput } from './inputs.js';
import { readCatalogFiles } from './read-files.js';

export interface LoadCatalogOptions {
  format?: RecordFormatOption;
  /** Skip invalid records (each is logged, up to a limit) instead of failing on the first. */
  skipInvalid?: boolean;
  signal?: AbortSignal;
  log: Logger;
  progress: ProgressMode;
}

/** How many skipped records are logged one by one. */
const MAX_LOGGED_PROBLEMS = 20;

/**
 * Streams every input, as one catalogue, into `consume` (such as a memory source's `replaceFrom`),
 * with the tasks and methods of PwC records (filled as the papers are read),
 * with a progress display. Resolves with the number of papers passed on and of records skipped.
 * @throws the first bad record's `PaperLoadError` (unless `skipInvalid`), a `CliError` for an
 *   unreadable file, `signal.reason`, or what `consume` throws.
 */
export async function loadCatalog(
  inputs: readonly CatalogInput[],
  options: LoadCatalogOptions,
  consume: (papers: AsyncIterable<Paper>, annotations: AnnotationMap) => Promise<void>,
): Promise<{ papers: number; skipped: number }> {
  const { log } = options;
  const progress = new CatalogProgress(options.progress, log, inputs);
  let papers = 0;
  let skipped = 0;
  // The tasks and methods of PwC records, filled as the papers are read (see readCatalog).
  const annotations = new Map<string, PaperAnnotations>();
  try {
    const reading = readCatalogFiles(inputs, {
      annotations,
      ...(options.format === undefined ? {} : { format: options.format }),
      ...(options.skipInvalid === undefined ? {} : { skipInvalid: options.skipInvalid }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onFileStart: (input, index) => progress.fileStart(input, index),
      onProgress: (p) => progress.update(p),
      onFileEnd: (input, stats) => progress.fileEnd(input, stats),
      onInvalid: (input, problem) => {
        skipped++;
        if (skipped <= MAX_LOGGED_PROBLEMS) progress.warn(`skipped ${input.name} ${input.kind === 'parquet' ? 'row' : 'line'} ${problem.line}: ${problem.reason}`);
      },
    });
    await consume(
      (async function* counted() {
        for await (const paper of reading) {
          papers++;
          yield paper;
        }
        progress.finish({ records: papers, skipped });
      })(),
      annotations,
    );
  } catch (error) {
    progress.abort();
    throw error;
  }
  if (skipped > MAX_LOGGED_PROBLEMS) log.warn(`skipped ${formatCount(skipped)} invalid records in all (the first ${MAX_LOGGED_PROBLEMS} are listed above)`);
  return { papers, skipped };
}
