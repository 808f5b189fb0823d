// Loaded only when a database is used: serving files needs neither pg nor @paperlist/postgres.
import type { MigrateResult, PostgresSource, Queryable } from '@paperlist/postgres';
import type pg from 'pg';
import { CliError, errorCode, oneLine } from '../cli-error.js';
import { EXIT } from '../exit-codes.js';
import type { Logger } from '../log.js';

/** A PaperSource over PostgreSQL and what the server needs to run it. */
export interface DatabaseSource {
  source: PostgresSource;
  count(): Promise<number>;
  close(): Promise<void>;
}

/** `postgres://user:***@host/db`: the URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database URL';
  }
}

/**
 * A `pg` pool on `url`, checked with one query.
 * @throws {CliError} with exit code 4 when the database cannot be reached.
 */
export async function connect(url: string, log: Logger, max = 10): Promise<pg.Pool> {
  const { default: pgModule } = await import('pg');
  const pool = new pgModule.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // An idle connection dropped by the server must not crash the process.
  pool.on('error', (error) => log.warn(`database connection lost: ${oneLine(error.message)}`));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw databaseError(error, `cannot connect to ${redactUrl(url)}`);
  }
  return pool;
}

/** A database failure as a one-line {@link CliError} (exit code 4). */
export function databaseError(error: unknown, doing: string): CliError {
  const code = errorCode(error);
  const message = oneLine(error instanceof Error ? error.message : String(error)).replace(/^paperlist: /, '');
  const hint =
    code === 'ECONNREFUSED'
      ? ' (is PostgreSQL running there?)'
      : code === '3D000'
        ? ' (create the database first)'
        : code === '28P01' || code === '28000'
          ? ' (check the user and password)'
          : '';
  return new CliError(`${doing}: ${message || code || 'unknown error'}${hint}`, EXIT.DATABASE, { cause: error });
}

/** Creates or migrates paperlist's schema and logs what it did. */
export async function migrateSchema(pool: pg.Pool, log: Logger, schema?: string): Promise<MigrateResult> {
  let result: MigrateResult;
  try {
    const { migrate } = await import('@paperlist/postgres');
    result = await migrate(pool as unknown as Queryable, schema === undefined ? {} : { schema });
  } catch (error) {
    throw databaseError(error, 'cannot migrate the database');
  }
  log.info(
    result.applied.length === 0
      ? `database schema is up to date (version ${result.version})`
      : `database schema migrated to version ${result.version} (applied ${result.applied.join(', ')})`,
  );
  return result;
}

/**
 * Connects to PostgreSQL and opens paperlist's source on it. The schema must exist (made by
 * `paperlist import`).
 * @throws {CliError} with exit code 4.
 */
export async function openDatabaseSource(url: string, log: Logger, options: { timeoutMs?: number; schema?: string } = {}): Promise<DatabaseSource> {
  const pool = await connect(url, log);
  let source: PostgresSource;
  try {
    const { createPostgresSource } = await import('@paperlist/postgres');
    source = await createPostgresSource({
      db: pool as unknown as Queryable,
      ...(options.timeoutMs === undefined ? {} : { statementTimeoutMs: options.timeoutMs }),
      ...(options.schema === undefined ? {} : { schema: options.schema }),
    });
  } catch (error) {
    await pool.end().catch(() => {});
    const missing = /has no paperlist tables|run migrate/.test((error as Error).message ?? '');
    if (missing) {
      throw new CliError(
        `${redactUrl(url)} holds no paperlist catalogue (or an older schema): run "paperlist import --database-url URL FILE..." first`,
        EXIT.DATABASE,
        { cause: error },
      );
    }
    throw databaseError(error, `cannot open the catalogue in ${redactUrl(url)}`);
  }
  let closed = false;
  return {
    source,
    async count() {
      try {
        const page = await source.list({
          terms: [],
          filters: {},
          ordering: { kind: 'fields', keys: [{ field: 'id', descending: false }] },
          offset: 0,
          limit: 0,
        });
        return page.count;
      } catch (error) {
        throw databaseError(error, 'cannot count the papers');
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await source.close();
      await pool.end();
    },
  };
}
