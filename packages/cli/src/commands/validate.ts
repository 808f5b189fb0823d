import { type RecordFormat, type RecordFormatOption } from '@paperlist/core';
import { IdRegistry, PaperLoadError } from '@paperlist/core/node';
import type { CommandContext } from '../context.js';
import { resolveInputs } from '../data/inputs.js';
import { readCatalogFile } from '../data/read-files.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatCount, plural } from '../log.js';
import { CatalogProgress, progressMode } from '../progress.js';

export interface ValidateOptions {
  format: RecordFormatOption;
  /** Print only the summary, not each invalid record. */
  summaryOnly?: boolean;
}

/**
 * `paperlist validate FILE...`: reads every file as `serve` would (ids must be unique across all
 * of them) and prints each invalid record as `FILE line N: reason` on stdout, then a summary per
 * file and in all. Exit code 1 when any record is invalid.
 */
export async function validate(files: readonly string[], options: ValidateOptions, context: CommandContext): Promise<ExitCode> {
  const { stdout, log } = context;
  const inputs = await resolveInputs(files, context.cwd);
  const ids = new IdRegistry();
  const progress = new CatalogProgress(progressMode(log), log, inputs, 'validating');
  let totalValid = 0;
  let totalInvalid = 0;
  let bytesBefore = 0;
  let recordsBefore = 0;
  for (const [index, input] of inputs.entries()) {
    const unit = input.kind === 'parquet' ? 'row' : 'line';
    let valid = 0;
    let invalid = 0;
    let format: RecordFormat | undefined;
    let fatal: string | undefined;
    const print = (line: string) => {
      if (options.summaryOnly !== true) stdout.write(`${line}\n`);
    };
    progress.fileStart(input, index);
    try {
      const papers = readCatalogFile(input, {
        format: options.format,
        skipInvalid: true,
        ids,
        onFormat: (f) => (format = f),
        onInvalid: ({ line, reason }) => {
          invalid++;
          print(`${input.name} ${unit} ${line}: ${reason}`);
        },
        onProgress: (records, bytes) => progress.update({ input, index, records: recordsBefore + records, bytes: bytesBefore + bytes }),
      });
      for await (const _paper of papers) valid++;
    } catch (error) {
      // Past a malformed array, corrupt gzip data or invalid UTF-8 nothing more can be read.
      if (!(error instanceof PaperLoadError)) {
        progress.abort();
        throw error;
      }
      invalid++;
      fatal = error.message;
      print(`${error.message} (the rest of the file cannot be read)`);
    }
    progress.fileEnd(input, { records: valid, skipped: invalid });
    bytesBefore += input.size;
    recordsBefore += valid;
    totalValid += valid;
    totalInvalid += invalid;
    const what = format === undefined ? '' : ` (${format === 'pwc' ? 'Papers with Code' : 'paperlist'} records${input.kind === 'parquet' ? ', Parquet' : ''})`;
    stdout.write(
      `${input.name}: ${plural(valid + invalid, 'record')}${what}, ${formatCount(valid)} valid, ${formatCount(invalid)} invalid` +
        `${fatal === undefined ? '' : ', unreadable past the error'}\n`,
    );
  }
  progress.finish({ records: totalValid, skipped: totalInvalid }, 'validated');
  if (inputs.length > 1) {
    stdout.write(`${formatCount(inputs.length)} files: ${plural(totalValid + totalInvalid, 'record')}, ${formatCount(totalValid)} valid, ${formatCount(totalInvalid)} invalid\n`);
  }
  return totalInvalid > 0 ? EXIT.INVALID_DATA : EXIT.OK;
}
