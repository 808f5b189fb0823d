import { parseArgs } from 'node:util';
import type { Queryable } from './db.js';
import { importPapers, type ImportProgress } from './import.js';
import { migrate } from './migrations.js';
import { DEFAULT_SCHEMA } from './schema.js';

const USAGE = `usage:
  paperlist-postgres migrate [--database-url URL] [--schema NAME]
  paperlist-postgres import FILE [--database-url URL] [--schema NAME] [--upsert | --replace [--in-place]]

The database URL defaults to $DATABASE_URL. FILE is a catalogue readPapers reads
(JSON Lines or a JSON array, optionally gzip-compressed). --replace builds the new
catalogue beside the stored one, served until the import commits; with --in-place the
table is emptied and reloaded, and reads wait for the whole import.`;

/** Where the commands write; the paperlist CLI passes its own. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: CliIo = { out: (line) => console.log(line), err: (line) => console.error(line) };

/**
 * The `migrate` and `import` commands, for the `paperlist` CLI (which calls this with its
 * arguments after the command word) or for `node dist/run-cli.js` / `tsx src/run-cli.ts`. Needs `pg`.
 * Returns the process exit code.
 *
 * @example await runPostgresCli(['migrate', '--database-url', 'postgres://localhost/papers'])
 */
export async function runPostgresCli(argv: readonly string[], io: CliIo = consoleIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        'database-url': { type: 'string' },
        schema: { type: 'string' },
        upsert: { type: 'boolean' },
        replace: { type: 'boolean' },
        'in-place': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, file, ...rest] = positionals;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const url = values['database-url'] ?? env['DATABASE_URL'];
  const schema = values.schema ?? DEFAULT_SCHEMA;
  const valid = (command === 'migrate' && file === undefined) || (command === 'import' && file !== undefined && rest.length === 0);
  const inPlaceAlone = values['in-place'] === true && values.replace !== true;
  if (!valid || url === undefined || (values.upsert && values.replace) || inPlaceAlone) {
    io.err(url === undefined && valid ? `no database: pass --database-url or set DATABASE_URL\n${USAGE}` : USAGE);
    return 2;
  }
  const pg = await import('pg');
  const Pool = (pg.default ?? pg).Pool;
  const pool = new Pool({ connectionString: url, max: 2 });
  try {
    const db = pool as unknown as Queryable;
    const migrated = await migrate(db, { schema });
    io.out(
      migrated.applied.length === 0
        ? `schema ${schema} is up to date (version ${migrated.version})`
        : `schema ${schema}: applied migration${migrated.applied.length > 1 ? 's' : ''} ${migrated.applied.join(', ')}`,
    );
    if (command === 'import') {
      let last = 0;
      const result = await importPapers(db, file!, {
        schema,
        upsert: values.upsert === true,
        replace: values.replace === true,
        swap: values['in-place'] !== true,
        onProgress: (progress: ImportProgress) => {
          if (progress.phase === 'indexing') io.out(`${progress.records} papers loaded, building indexes`);
          else if (progress.phase === 'loading' && progress.records - last >= 100_000) {
            last = progress.records;
            io.out(`${progress.records} papers`);
          }
        },
      });
      io.out(
        `imported ${result.records} papers in ${(result.durationMs / 1000).toFixed(1)} s ` +
          `(${result.inserted} new, ${result.updated} updated, ${result.unchanged} unchanged; ${result.method}` +
          `${result.swapped ? ', swapped in' : ''})`,
      );
    }
    return 0;
  } catch (error) {
    io.err(`paperlist-postgres: ${(error as Error).message}`);
    return 1;
  } finally {
    await pool.end();
  }
}
