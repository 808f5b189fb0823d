import type { Queryable } from '@paperlist/postgres';
import { type PaperAnnotations, type RecordFormatOption } from '@paperlist/core';
import { PaperLoadError } from '@paperlist/core/node';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { connect, databaseError, migrateSchema, redactUrl } from '../data/database.js';
import { resolveInputs } from '../data/inputs.js';
import { readCatalogFiles } from '../data/read-files.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatCount, formatDuration } from '../log.js';
import { CatalogProgress, progressMode } from '../progress.js';

export interface ImportOptions {
  databaseUrl: string;
  format: RecordFormatOption;
  upsert?: boolean;
  replace?: boolean;
  /** With `replace`: truncate and load in place instead of building beside and swapping. */
  inPlace?: boolean;
  skipInvalid?: boolean;
  schema?: string;
}

/**
 * `paperlist import --database-url URL FILE...`: migrates the schema, then imports every file
 * (as one catalogue: ids unique across files) in one transaction, with progress. SIGINT or
 * SIGTERM cancels the import; nothing is kept.
 */
export async function importFiles(files: readonly string[], options: ImportOptions, context: CommandContext): Promise<ExitCode> {
  const { log, stdout } = context;
  if (options.inPlace === true && options.replace !== true) throw new CliError('--in-place only applies to --replace', EXIT.USAGE);
  const inputs = await resolveInputs(files, context.cwd);
  const { importPapers, PaperImportError } = await import('@paperlist/postgres');
  const pool = await connect(options.databaseUrl, log, 2);
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) return;
    log.info(`${signal}: cancelling the import (nothing is kept)`);
    abort.abort(new CliError(`import cancelled by ${signal}; the database is unchanged`, EXIT.INTERRUPTED));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const progress = new CatalogProgress(progressMode(log), log, inputs, 'importing');
  try {
    await migrateSchema(pool, log, options.schema);
    let skipped = 0;
    // The tasks and methods of PwC records: filled as the papers are read, written after them.
    const annotations = new Map<string, PaperAnnotations>();
    const papers = readCatalogFiles(inputs, {
      annotations,
      format: options.format,
      ...(options.skipInvalid === undefined ? {} : { skipInvalid: options.skipInvalid }),
      signal: abort.signal,
      onFileStart: (input, index) => progress.fileStart(input, index),
      onProgress: (p) => progress.update(p),
      onFileEnd: (input, stats) => progress.fileEnd(input, stats),
      onInvalid: (input, problem) => {
        skipped++;
        if (skipped <= 20) progress.warn(`skipped ${input.name} ${input.kind === 'parquet' ? 'row' : 'line'} ${problem.line}: ${problem.reason}`);
      },
    });
    let indexing = false;
    const result = await importPapers(pool as unknown as Queryable, papers, {
      upsert: options.upsert === true,
      replace: options.replace === true,
      swap: options.inPlace !== true,
      annotations,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
      signal: abort.signal,
      onProgress: ({ phase, records }) => {
        if (phase === 'indexing' && !indexing) {
          indexing = true;
          progress.finish({ records, skipped }, 'read');
          log.info('building the indexes');
        }
      },
    });
    if (!indexing) progress.finish({ records: result.records, skipped }, 'read');
    const changes =
      options.upsert === true
        ? `${formatCount(result.inserted)} new, ${formatCount(result.updated)} updated, ${formatCount(result.unchanged)} unchanged`
        : `${formatCount(result.inserted)} new`;
    stdout.write(
      `paperlist: imported ${formatCount(result.records)} papers into ${redactUrl(options.databaseUrl)} (${changes}) in ${formatDuration(result.durationMs)}\n`,
    );
    return EXIT.OK;
  } catch (error) {
    progress.abort();
    if (abort.signal.aborted) throw abort.signal.reason;
    if (error instanceof CliError || error instanceof PaperLoadError) throw error;
    if (error instanceof PaperImportError) {
      const message = error.message.replace(/^paperlist: /, '').replace(/; import with \{ upsert: true \}[^;]*/, '');
      const hint = /already|exists|duplicate/i.test(message) && options.upsert !== true ? ' (pass --upsert to update stored papers)' : '';
      throw new CliError(`the database refused the import, nothing was imported: ${message}${hint}`, EXIT.DATABASE, { cause: error });
    }
    throw databaseError(error, 'the import failed, nothing was imported');
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool.end().catch(() => {});
  }
}
