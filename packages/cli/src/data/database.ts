// Loaded only when a database is used: serving files needs neither pg nor @paperlist/postgres.
import type { FollowEvent, FollowingSource, FollowState, MigrateResult, PostgresSource, Queryable } from '@paperlist/postgres';
import type pg from 'pg';
import { CliError, errorCode, oneLine } from '../cli-error.js';
import { EXIT } from '../exit-codes.js';
import { formatCount, formatDuration, type Logger } from '../log.js';

/**
 * How `serve --database-url` answers queries: `memory` (default), from the in-memory engine
 * loaded from PostgreSQL and kept up to date from its change log; `sql`, every query in SQL.
 */
export type QueryMode = 'memory' | 'sql';

/** A PaperSource over PostgreSQL and what the server needs to run it. */
export interface DatabaseSource {
  source: PostgresSource | FollowingSource;
  count(): Promise<number>;
  /** Where the in-memory copy stands (`memory` mode), for /healthz and metrics. */
  follow(): FollowState | undefined;
  /** Queries waiting for and running on query threads (`memory` mode). */
  activity(): { queued: number; running: number } | undefined;
  close(): Promise<void>;
}

/** Options of {@link openDatabaseSource}. */
export interface DatabaseSourceOptions {
  /** `memory` (default) or `sql`. */
  mode?: QueryMode;
  /** Longest a query may take (`sql`). */
  timeoutMs?: number;
  schema?: string;
  /** Query threads (`memory`). */
  threads?: number;
  /** Milliseconds of work one query may take (`memory`). */
  budgetMs?: number;
  /** Queries that may wait for a thread (`memory`). */
  maxQueue?: number;
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
 * Connects to PostgreSQL and opens paperlist's source on it: in `memory` mode the catalogue is
 * loaded into the in-memory engine (this takes a while for a large one) and followed; in `sql`
 * mode queries go to PostgreSQL. The schema must exist (made by `paperlist import`).
 * @throws {CliError} with exit code 4.
 */
export async function openDatabaseSource(url: string, log: Logger, options: DatabaseSourceOptions = {}): Promise<DatabaseSource> {
  const mode = options.mode ?? 'memory';
  const pool = await connect(url, log);
  let source: PostgresSource | FollowingSource;
  try {
    const { createPostgresSource, createFollowingSource } = await import('@paperlist/postgres');
    const db = pool as unknown as Queryable;
    const schema = options.schema === undefined ? {} : { schema: options.schema };
    if (mode === 'sql') {
      source = await createPostgresSource({ db, ...schema, ...(options.timeoutMs === undefined ? {} : { statementTimeoutMs: options.timeoutMs }) });
    } else {
      source = await createFollowingSource(db, {
        ...schema,
        ...(options.threads === undefined ? {} : { threads: options.threads }),
        ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
        ...(options.maxQueue === undefined ? {} : { maxQueue: options.maxQueue }),
        onEvent: followLogger(log),
      });
    }
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
  const following = 'state' in source ? source : undefined;
  return {
    source,
    async count() {
      if (following !== undefined) return following.size;
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
    follow: () => following?.state(),
    activity: () => following?.activity(),
    async close() {
      if (closed) return;
      closed = true;
      await source.close();
      await pool.end();
    },
  };
}

/** How long a failing catch-up stays quiet in the log after it was reported (it is retried every second). */
const QUIET_FAILURES_MS = 60_000;

/** Log lines for what a following source does: reloads, a lost and regained connection, failed catch-ups. */
function followLogger(log: Logger): (event: FollowEvent) => void {
  let reportedFailureAt = -Infinity;
  return (event) => {
    switch (event.type) {
      case 'loading':
        if (event.reason === 'start') log.info('loading the catalogue from PostgreSQL into memory');
        break;
      case 'loaded':
        log.info(
          `${event.reason === 'start' ? 'loaded' : `reloaded (${event.reason})`} ${formatCount(event.papers)} papers from PostgreSQL ` +
            `in ${formatDuration(event.ms)}, change log at ${event.sequence}`,
        );
        break;
      case 'connected':
        reportedFailureAt = -Infinity;
        if (event.again) log.info('listening to PostgreSQL again; catching up');
        break;
      case 'disconnected':
        log.warn(`lost the PostgreSQL connection that listens for changes (still serving what was loaded; /healthz says degraded): ${oneLine(event.error.message)}`);
        break;
      case 'catch-up-failed':
        if (Date.now() - reportedFailureAt < QUIET_FAILURES_MS) break;
        reportedFailureAt = Date.now();
        log.warn(`cannot read PostgreSQL's change log (retrying every second): ${oneLine(event.error.message)}`);
        break;
    }
  };
}
