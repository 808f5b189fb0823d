import { createRequire } from 'node:module';
import { Command, CommanderError, Option } from 'commander';
import { describeError } from './cli-error.js';
import { importFiles, type ImportOptions } from './commands/import.js';
import { migrateDatabase, type MigrateOptions } from './commands/migrate.js';
import { serve, type ServeOptions } from './commands/serve.js';
import { validate, type ValidateOptions } from './commands/validate.js';
import { exportPapers, type ExportOptions } from './commands/export.js';
import type { CommandContext } from './context.js';
import { EnvironmentCommand } from './environment-options.js';
import { EXIT, EXIT_CODES_HELP, type ExitCode } from './exit-codes.js';
import { createLogger } from './log.js';
import {
  parseDatabaseUrl,
  parseFormat,
  parseMount,
  parsePort,
  parsePositiveInteger,
  parseSeconds,
  parseMilliseconds,
  parseTrustProxy,
  parseWorkers,
  defaultWorkers,
} from './options.js';
import { DEFAULT_BUDGET_MS } from '@paperlist/core';

/** Where the CLI reads and writes; the process's own by default (tests may pass others). */
export interface CliIo {
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Directory relative paths are resolved against. */
  cwd?: string;
}

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

interface GlobalFlags {
  quiet?: boolean;
  verbose?: boolean;
  /** `serve` only. */
  logFormat?: string;
}

const FORMAT_HELP =
  'record format: auto (by the keys of the first record), paperlist, or pwc (Papers with Code dump)';

/**
 * Runs `paperlist` with `argv` (without the node and script paths) and resolves with the exit code.
 * Errors are reported as one line on stderr (with the stack under `--verbose`).
 */
export async function main(argv: readonly string[], io: CliIo = {}): Promise<ExitCode> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const cwd = io.cwd ?? process.cwd();
  const prefix = 'paperlist';
  let exitCode: ExitCode = EXIT.OK;
  let flags: GlobalFlags = {};

  const contextFor = (command: Command): CommandContext => {
    flags = command.opts<GlobalFlags>();
    const format = flags.logFormat === 'json' ? 'json' : 'text';
    return { stdout, cwd, log: createLogger({ prefix, stream: stderr, quiet: flags.quiet === true, verbose: flags.verbose === true, format }) };
  };

  const program = new Command('paperlist')
    .description('Serve a research-paper catalogue with the Papers with Code API v1 interface.')
    .version(version, '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
      outputError: (text, write) => write(`${prefix}: ${text}`),
    })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText(
      'after',
      `
Examples:
  paperlist serve                                  # the embedded 4,000-paper sample on http://127.0.0.1:8000/api/v1/papers/
  paperlist serve --data papers-with-abstracts.json.gz --port 8080
  paperlist validate papers.jsonl.gz
  paperlist import --database-url postgres://localhost/papers papers.jsonl.gz

${EXIT_CODES_HELP}`,
    );

  const withCommonFlags = (command: Command) =>
    command
      .option('-q, --quiet', 'print no progress or status lines (errors still go to stderr)')
      .option('--verbose', 'print stack traces with errors');

  withCommonFlags(
    program
      // Every flag of `serve` can come from the environment too (containers, process managers).
      // (`command()` would copy the program's settings: exit override, output, help after errors.)
      .addCommand(new EnvironmentCommand('serve', { '--host': 'HOST' }).copyInheritedSettings(program))
      .commands.at(-1)!
      .description('Serve a catalogue over HTTP: the embedded sample, catalogue files, or PostgreSQL.')
      .addOption(
        new Option('-d, --data <file...>', 'catalogue files: JSON Lines, JSON arrays or PwC dumps (gzip or plain), or Parquet; repeatable')
          .conflicts('databaseUrl'),
      )
      .addOption(new Option('--format <format>', FORMAT_HELP).argParser(parseFormat).default('auto'))
      .option('--skip-invalid', 'skip invalid records (each is logged) instead of refusing the catalogue')
      .addOption(
        new Option('--state-dir <dir>', 'keep the catalogue in DIR between starts: a snapshot, loaded in seconds while the --data files are unchanged')
          .conflicts('databaseUrl'),
      )
      .addOption(
        new Option('--write-token-file <file>', 'turn on HTTP writes (PUT, DELETE, POST ndjson) for requests presenting the token in FILE; or set PAPERLIST_WRITE_TOKEN'),
      )
      .option('--ephemeral-writes', 'allow writes without --state-dir (they are lost when the server stops)')
      .addOption(new Option('--database-url <url>', 'serve from PostgreSQL instead of files').env('PAPERLIST_DATABASE_URL').argParser(parseDatabaseUrl))
      .option('--schema <name>', 'the PostgreSQL schema holding the catalogue', 'paperlist')
      .addOption(
        new Option(
          '--query-mode <mode>',
          'with --database-url: memory (load the catalogue into the in-memory engine and follow its changes) or sql (answer every query in PostgreSQL)',
        )
          .choices(['memory', 'sql'])
          .default('memory'),
      )
      .addOption(new Option('-p, --port <port>', 'port to listen on (0: any free port)').env('PORT').argParser(parsePort).default(8000))
      .option('--host <host>', 'address to listen on (0.0.0.0 or :: for every interface)', '127.0.0.1')
      .option('--base-url <url>', 'scheme://host[:port] that next/previous links start with (default: from each request)')
      .addOption(new Option('--mount <path>', 'URL path the API is mounted at').argParser(parseMount).default('/api/v1'))
      .addOption(
        new Option('-w, --workers <n>', 'query threads sharing the one in-memory index, or "auto": one per CPU and two more')
          .argParser(parseWorkers)
          .default(defaultWorkers(), '"auto"'),
      )
      .addOption(
        new Option('--budget <ms>', 'milliseconds of work one query may take; a query that needs more stops and is answered 503')
          .argParser(parseMilliseconds)
          .default(DEFAULT_BUDGET_MS),
      )
      .addOption(new Option('--max-queue <n>', 'queries that may wait for a free thread; more are answered 503 at once').argParser(parsePositiveInteger))
      .option('--allowed-host <host...>', 'host names requests may use, such as papers.example.org or .example.org (* for any); others get 400 (default: localhost and --host)')
      .addOption(new Option('--page-size <n>', 'results per page by default').argParser(parsePositiveInteger))
      .addOption(new Option('--max-page-size <n>', 'largest items_per_page honoured').argParser(parsePositiveInteger))
      .addOption(new Option('--trust-proxy <value>', "Express's trust proxy setting: true, a number of hops, or addresses (loopback, 10.0.0.0/8)").argParser(parseTrustProxy))
      .addOption(new Option('--timeout <seconds>', 'longest a catalogue query may take before the request gets a 503').argParser(parseSeconds))
      .addOption(new Option('--shutdown-timeout <seconds>', 'on SIGTERM/SIGINT, how long requests in flight may take to finish').argParser(parseSeconds).default(10))
      .option('--cors <origins...>', 'origins whose browser scripts may read the API, such as https://app.example.org (* for any); off by default')
      .option('--no-metrics', 'do not serve Prometheus metrics at /metrics')
      .option('--no-compression', 'send answers uncompressed (by default gzip or br, as the client accepts), e.g. behind a proxy that compresses')
      .option('--access-log', 'print one line per request on stdout')
      .addOption(new Option('--log-format <format>', 'text (lines for people) or json (pino JSON lines with request ids, for log collectors)').choices(['text', 'json']).default('text'))
      .addOption(new Option('--debug-delay <ms>', 'wait before answering each API request').argParser(parsePositiveInteger).hideHelp())
      .addHelpText(
        'after',
        `
Signals:
  SIGTERM, SIGINT  stop accepting connections, let requests in flight finish (up to --shutdown-timeout), exit 0;
                   a second Ctrl-C exits at once with code 130
  SIGHUP           reload the catalogue from the same --data files (built aside, swapped in at once, with
                   every write of the --state-dir journal applied); a failed reload keeps the current catalogue

Endpoints:
  {mount}/papers/ and {mount}/papers/{id}/  the Papers with Code API v1
  /healthz                                  200 {"status":"ready","papers":N}; 503 while loading or stopping;
                                            from PostgreSQL also "lag_ms", and "status":"degraded" (still 200)
                                            while the database is out of reach

Examples:
  paperlist serve
  paperlist serve --data papers.jsonl.gz --port 8080 --host 0.0.0.0 --workers 4 --budget 500
  paperlist serve --data papers-with-abstracts.json.gz --skip-invalid
  paperlist serve --data papers.jsonl.gz --state-dir /var/lib/paperlist
  paperlist serve --data papers.jsonl.gz --state-dir /var/lib/paperlist --write-token-file /run/secrets/paperlist-token
  paperlist serve --data part-1.parquet --data part-2.parquet
  paperlist serve --database-url postgres://user@localhost/papers
  paperlist serve --database-url postgres://user@localhost/papers --query-mode sql

${EXIT_CODES_HELP}`,
      )
      .action(async (options: ServeOptions, command: Command) => {
        exitCode = await serve(options, contextFor(command));
      }),
  );

  withCommonFlags(
    program
      .command('import')
      .description('Import catalogue files into PostgreSQL (the schema is created or migrated first).')
      .argument('<file...>', 'catalogue files: JSON Lines, JSON arrays or PwC dumps (gzip or plain), or Parquet')
      .addOption(new Option('--database-url <url>', 'the PostgreSQL database').env('PAPERLIST_DATABASE_URL').argParser(parseDatabaseUrl).makeOptionMandatory())
      .option('--schema <name>', 'the PostgreSQL schema to import into (created if missing)', 'paperlist')
      .addOption(new Option('--format <format>', FORMAT_HELP).argParser(parseFormat).default('auto'))
      .addOption(new Option('--upsert', 'update papers whose id is already in the database (default: such ids are an error)').conflicts('replace'))
      .option('--replace', 'replace the catalogue: the database ends up holding exactly these files (built beside the old one, which is served until the import commits)')
      .option('--in-place', 'with --replace: empty the table and load it in place; reads wait for the whole import')
      .option('--skip-invalid', 'skip invalid records (each is logged) instead of stopping at the first')
      .addHelpText(
        'after',
        `
Examples:
  paperlist import --database-url postgres://user@localhost/papers papers.jsonl.gz
  PAPERLIST_DATABASE_URL=postgres://localhost/papers paperlist import --upsert papers-with-abstracts.json.gz
  paperlist import --database-url postgres://user@localhost/papers --replace papers.jsonl.gz

${EXIT_CODES_HELP}`,
      )
      .action(async (files: string[], options: ImportOptions, command: Command) => {
        exitCode = await importFiles(files, options, contextFor(command));
      }),
  );

  withCommonFlags(
    program
      .command('migrate')
      .description('Create or update the PostgreSQL schema without importing (import does this by itself).')
      .addOption(new Option('--database-url <url>', 'the PostgreSQL database').env('PAPERLIST_DATABASE_URL').argParser(parseDatabaseUrl).makeOptionMandatory())
      .option('--schema <name>', 'the PostgreSQL schema (created if missing)', 'paperlist')
      .addHelpText(
        'after',
        `
Migrations are versioned and idempotent; concurrent runs wait for each other. Run it on the primary,
e.g. as the deploy step before servers of a new release start.

Examples:
  paperlist migrate --database-url postgres://user@localhost/papers
  PAPERLIST_DATABASE_URL=postgres://localhost/papers paperlist migrate --schema staging

${EXIT_CODES_HELP}`,
      )
      .action(async (options: MigrateOptions, command: Command) => {
        exitCode = await migrateDatabase(options, contextFor(command));
      }),
  );

  withCommonFlags(
    program
      .command('export')
      .description('Write every paper matching a list query as JSON Lines (the bytes of GET /api/v1/papers/?…&format=jsonl), with progress on stderr.')
      .addOption(new Option('-d, --data <file...>', 'catalogue files, as for serve (default: the embedded sample)').conflicts('databaseUrl'))
      .addOption(new Option('--format <format>', FORMAT_HELP).argParser(parseFormat).default('auto'))
      .option('--skip-invalid', 'skip invalid records (each is logged) instead of refusing the catalogue')
      .addOption(new Option('--database-url <url>', 'export from PostgreSQL instead of files').env('PAPERLIST_DATABASE_URL').argParser(parseDatabaseUrl))
      .option('--schema <name>', 'the PostgreSQL schema holding the catalogue', 'paperlist')
      .option('--query <query>', 'the list query, as in the URL: q=bert&ordering=-published&year=2020- (a search needs an ordering)')
      .option('-o, --output <file>', 'write to FILE instead of stdout')
      .addHelpText(
        'after',
        `
Examples:
  paperlist export --data papers.jsonl.gz --query 'year=2020-&venue=acl&ordering=-published' -o acl-since-2020.jsonl
  paperlist export --database-url postgres://localhost/papers --query 'author=neubig&fields=id,title&ordering=id' | jq .title

${EXIT_CODES_HELP}`,
      )
      .action(async (options: ExportOptions, command: Command) => {
        exitCode = await exportPapers(options, contextFor(command));
      }),
  );

  withCommonFlags(
    program
      .command('validate')
      .description('Check catalogue files: print every invalid record with its line and why, then a summary.')
      .argument('<file...>', 'catalogue files: JSON Lines, JSON arrays or PwC dumps (gzip or plain), or Parquet')
      .addOption(new Option('--format <format>', FORMAT_HELP).argParser(parseFormat).default('auto'))
      .option('--summary-only', 'print only the summary lines')
      .addHelpText(
        'after',
        `
Output (stdout): one line per invalid record, then one summary line per file:
  papers.jsonl line 3: field "published": expected a real date YYYY-MM-DD, got "2019-02-30"
  papers.jsonl: 4,000 records (paperlist records), 3,999 valid, 1 invalid

Exits with 0 when every record is valid and 1 when any is invalid (ids must be unique across all the files).

${EXIT_CODES_HELP}`,
      )
      .action(async (files: string[], options: ValidateOptions, command: Command) => {
        exitCode = await validate(files, options, contextFor(command));
      }),
  );

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    const { exitCode: code, message } = describeError(error);
    stderr.write(`${prefix}: error: ${message}\n`);
    if (flags.verbose === true && error instanceof Error && error.stack !== undefined) stderr.write(`${error.stack}\n`);
    else if (code === EXIT.INTERNAL) stderr.write(`${prefix}: (run with --verbose for details)\n`);
    return code;
  }
}
