import { isPool, type PoolClientLike, type PoolLike, type Queryable } from './db.js';

/** The error of a statement that ran longer than `statementTimeoutMs` (SQLSTATE `57014`, like PostgreSQL's own). */
export class StatementTimeoutError extends Error {
  override readonly name = 'StatementTimeoutError';
  readonly code = '57014';
  constructor(timeoutMs: number) {
    super(`canceling statement due to statement timeout (${timeoutMs} ms)`);
  }
}

interface SessionInfo {
  pid: number;
}

/**
 * Runs the source's read queries with its statement timeout and the caller's AbortSignal.
 *
 * On a pool (`pg.Pool`) each query checks out a client. The first time a client is seen, one
 * round trip reads its backend pid and sets `statement_timeout` for its session (the server
 * enforces it). When the signal aborts, the query is rejected at once with the signal's
 * reason, and the backend is told to stop with `pg_cancel_backend(pid)` over a separate
 * connection; the client goes back to the pool only after that, and is then discarded, so a
 * late cancel can never hit another request's query.
 *
 * On one session (`pg.Client`, PGlite) statements cannot be cancelled from the side: the
 * promise is rejected on abort or timeout and the statement runs to its end in the
 * background. PostgreSQL's own `statement_timeout` is set too where the server honours it.
 */
export class QueryRunner {
  private readonly sessions = new WeakMap<object, SessionInfo>();
  private singleSessionReady: Promise<void> | undefined;

  constructor(
    readonly db: Queryable,
    private readonly statementTimeoutMs: number | undefined,
  ) {}

  async rows<R>(text: string, params: unknown[], signal?: AbortSignal): Promise<R[]> {
    signal?.throwIfAborted();
    const db = this.db;
    if (isPool(db)) return this.onPool<R>(db, text, params, signal);
    return this.onSession<R>(db, text, params, signal);
  }

  private async onPool<R>(pool: PoolLike, text: string, params: unknown[], signal: AbortSignal | undefined): Promise<R[]> {
    const client = await pool.connect();
    if (signal?.aborted) {
      client.release();
      throw signal.reason;
    }
    let info: SessionInfo;
    try {
      info = await this.sessionInfo(client);
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    const running = client.query(text, params);
    if (signal === undefined) {
      try {
        return (await running).rows as R[];
      } finally {
        client.release();
      }
    }
    return new Promise<R[]>((resolve, reject) => {
      let cancelling: Promise<void> | undefined;
      const onAbort = () => {
        reject(signal.reason);
        cancelling ??= cancelBackend(pool, info.pid);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      running.then(
        (result) => resolve(result.rows as R[]),
        (error: unknown) => reject(error),
      );
      void running
        .catch(() => {})
        .then(async () => {
          signal.removeEventListener('abort', onAbort);
          if (cancelling === undefined) {
            client.release();
            return;
          }
          await cancelling.catch(() => {});
          client.release(true);
        });
    });
  }

  /** The backend pid of a pool client, read once, when the client is first seen (and its timeout set). */
  private async sessionInfo(client: PoolClientLike): Promise<SessionInfo> {
    const known = this.sessions.get(client);
    if (known) return known;
    const timeout = this.statementTimeoutMs;
    const { rows } = await client.query(
      timeout === undefined
        ? 'SELECT pg_backend_pid() AS pid'
        : "SELECT pg_backend_pid() AS pid, set_config('statement_timeout', $1, false)",
      timeout === undefined ? [] : [`${timeout}ms`],
    );
    const info = { pid: Number((rows[0] as { pid: unknown }).pid) };
    this.sessions.set(client, info);
    return info;
  }

  private async onSession<R>(db: Queryable, text: string, params: unknown[], signal: AbortSignal | undefined): Promise<R[]> {
    const timeout = this.statementTimeoutMs;
    if (timeout !== undefined) {
      this.singleSessionReady ??= db.query("SELECT set_config('statement_timeout', $1, false)", [`${timeout}ms`]).then(
        () => undefined,
        (error: unknown) => {
          this.singleSessionReady = undefined;
          throw error;
        },
      );
      await this.singleSessionReady;
    }
    const running = db.query(text, params);
    if (signal === undefined && timeout === undefined) return (await running).rows as R[];
    return new Promise<R[]>((resolve, reject) => {
      const timer = timeout === undefined ? undefined : setTimeout(() => reject(new StatementTimeoutError(timeout)), timeout);
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      running.then(
        (result) => {
          done();
          resolve(result.rows as R[]);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }
}

interface PgPoolInternals {
  Client?: new (options: unknown) => Queryable & { connect(): Promise<unknown>; end(): Promise<unknown> };
  options?: unknown;
}

/**
 * Asks the server to cancel what backend `pid` runs, over a connection of its own: a new
 * `pg.Client` with the pool's options when the pool exposes them (`pg.Pool` does), so a full
 * pool cannot delay the cancel; otherwise through the pool.
 */
async function cancelBackend(pool: PoolLike, pid: number): Promise<void> {
  const { Client, options } = pool as PoolLike & PgPoolInternals;
  const sql = 'SELECT pg_cancel_backend($1)';
  if (typeof Client === 'function' && options !== undefined) {
    const client = new Client(options);
    await client.connect();
    try {
      await client.query(sql, [pid]);
    } finally {
      await client.end().catch(() => {});
    }
    return;
  }
  await pool.query(sql, [pid]);
}
