import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import cliProgress from 'cli-progress';
import { createPapersHandler, type PaperSource, type PapersResponse, type RecordFormatOption } from '@paperlist/core';
import { createMemorySource } from '@paperlist/core/node';
import { CliError } from '../cli-error.js';
import type { CommandContext } from '../context.js';
import { openDatabaseSource } from '../data/database.js';
import { resolveInputs, sampleInput } from '../data/inputs.js';
import { loadCatalog } from '../data/load-catalog.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { formatBytes, formatCount, formatDuration } from '../log.js';
import { progressMode } from '../progress.js';

export interface ExportOptions {
  data?: string[];
  format: RecordFormatOption;
  skipInvalid?: boolean;
  databaseUrl?: string;
  schema?: string;
  /** The list request's query string (`q=bert&ordering=-published&year=2020-`). */
  query?: string;
  /** Where to write (default: stdout). */
  output?: string;
}

/** The host name the export's requests are made for (links are not part of an export). */
const HOST = 'paperlist.export';

/**
 * `paperlist export`: every paper matching a list query, as JSON Lines, on stdout or in a file:
 * the very bytes `GET /api/v1/papers/?…&format=jsonl` streams, through the same handler, with
 * progress on stderr. The catalogue comes from files (as `serve --data`) or PostgreSQL.
 */
export async function exportPapers(options: ExportOptions, context: CommandContext): Promise<ExitCode> {
  const { log } = context;
  const { source, close } = await openSource(options, context);
  try {
    const handle = createPapersHandler({ source, allowedHosts: [HOST] });
    const query = (options.query ?? '').replace(/^\?/, '');
    const ask = (extra: string) => handle({ method: 'GET', url: `/papers/?${query}${query === '' ? '' : '&'}${extra}`, headers: { host: HOST } });
    const counted = await ask('count_only=1');
    const count = counted === null || counted.status !== 200 ? 0 : (JSON.parse(new TextDecoder().decode(counted.body!)) as { count: number }).count;
    const answer = await ask('format=jsonl');
    if (answer === null || answer.status !== 200 || answer.stream === undefined) throw refused(answer, query);

    const started = performance.now();
    const progress = progressFor(progressMode(log), log.stream, count);
    let papers = 0;
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) papers++;
        progress?.update(papers);
        done(null, chunk);
      },
    });
    const target = options.output === undefined ? context.stdout : createWriteStream(resolve(context.cwd, options.output));
    await pipeline(Readable.from(answer.stream, { objectMode: false }), counter, target, { end: options.output !== undefined });
    progress?.stop();
    const seconds = (performance.now() - started) / 1000;
    const where = options.output === undefined ? 'stdout' : options.output;
    log.info(`exported ${formatCount(papers)} papers to ${where} (${formatBytes(bytes)} in ${formatDuration(seconds * 1000)}, ${formatBytes(bytes / Math.max(seconds, 1e-3))}/s)`);
    return EXIT.OK;
  } finally {
    await close();
  }
}

async function openSource(options: ExportOptions, context: CommandContext): Promise<{ source: PaperSource; close: () => Promise<void> }> {
  const { log } = context;
  if (options.databaseUrl !== undefined) {
    const database = await openDatabaseSource(options.databaseUrl, log, options.schema === undefined ? {} : { schema: options.schema });
    return { source: database.source, close: () => database.close() };
  }
  const inputs = options.data === undefined || options.data.length === 0 ? [await sampleInput()] : await resolveInputs(options.data, context.cwd);
  const memory = createMemorySource([]);
  await loadCatalog(
    inputs,
    { log, progress: progressMode(log), format: options.format, ...(options.skipInvalid === undefined ? {} : { skipInvalid: options.skipInvalid }) },
    (papers, annotations) => memory.replaceFrom(papers, { annotations }),
  );
  return { source: memory, close: () => memory.close() };
}

/** The query was refused (a bad parameter): its error, as the API words it. */
function refused(answer: PapersResponse | null, query: string): CliError {
  const body = answer?.body === null || answer === null ? '' : new TextDecoder().decode(answer.body);
  return new CliError(`the query ${JSON.stringify(query)} was refused (${answer?.status ?? 404}): ${body}`, EXIT.USAGE);
}

function progressFor(mode: ReturnType<typeof progressMode>, stream: NodeJS.WritableStream, total: number): cliProgress.SingleBar | undefined {
  if (mode !== 'bar') return undefined;
  const bar = new cliProgress.SingleBar({
    stream,
    format: 'Exporting [{bar}] {percentage}% | {value}/{total} papers | ETA {eta_formatted}',
    barsize: 24,
    hideCursor: true,
    fps: 8,
    gracefulExit: false,
  });
  bar.start(total, 0);
  return bar;
}
