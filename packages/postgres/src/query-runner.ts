import { ConnectionGate, type GateLimits } from './bounded-pool.js';
import { isPool, type PoolClientLike, type PoolLike, type Queryable } from './db.js';
import { asBudgetError, callOf, untilAborted } from './statement-timeout.js';

/**
 * The error of a statement that ran longer than `statementTimeoutMs` on one session (SQLSTATE
 * `57014`, like PostgreSQL's own); the runner hands it on as a `QueryBudgetError`, as it does
 * the server's own.
 */
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

/** What the runner sets on each session it reads through. */
export interface SessionSettings {
  /** `statement_timeout`, in milliseconds; the server's default when undefined. */
  statementTimeoutMs: number | undefined;
  /** `jit`: left to the server when true, turned off when false. */
  jit: boolean;
  /** Bounds of the wait for a pool connection (see {@link ConnectionGate}); default: the pool's size, 4 × as many waiting, 1 s, no shedding. */
  gate?: Partial<GateLimits>;
}

/**
 * Runs the source's read queries with its statement timeout and the caller's AbortSignal.
 *
 * On a pool (`pg.Pool`) each query checks out a client. The first time a client is seen, one
 * round trip reads its backend pid and applies the session settings (`statement_timeout`,
 * which the server enforces, and `jit`). When the signal aborts, the query is rejected at
 * once with the signal's reason, and the backend is told to stop: with the protocol's cancel
 * request where the client is a `pg` one (a connection that only carries the cancel, which the
 * server handles without starting a session), else `pg_cancel_backend(pid)` over a separate
 * connection. The client goes back to the pool only once the cancel has been delivered and its
 * statement has ended, and then only after one `SELECT 1` on it succeeds: a cancel still pending
 * in the backend would fail that probe (the client is then discarded), so a late cancel can never
 * hit another request's query. Discarding every cancelled client instead cost a new session per
 * `503` (31 ms each on a loaded 2-core machine), which under overload turned refusals into more
 * refusals.
 *
 * On one session (`pg.Client`, PGlite) statements cannot be cancelled from the side: the
 * promise is rejected on abort or timeout and the statement runs to its end in the
 * background. The session settings are applied once, before the first statement.
 *
 * JIT is off by default: the planner over-estimates how many papers a search matches, and
 * above `jit_above_cost` it compiles the scoring expressions on every call, about 20 ms, which
 * is more than most of these statements take to run.
 */
export class QueryRunner {
  private readonly sessions = new WeakMap<object, SessionInfo>();
  private singleSessionReady: Promise<void> | undefined;
  /** The statements applying the settings: with the pid (pool clients), and alone (one session). */
  private readonly poolSetup: SettingsStatement;
  private readonly sessionSetup: SettingsStatement;
  /** The bounded wait for the pool's connections (pools only). */
  readonly gate: ConnectionGate | undefined;

  constructor(
    readonly db: Queryable,
    private readonly settings: SessionSettings,
  ) {
    this.poolSetup = settingsStatement(settings, 'pg_backend_pid() AS pid');
    this.sessionSetup = settingsStatement(settings, '');
    if (isPool(db)) {
      // pg.Pool's size (`max`, 10 by default): more statements at once would only wait in its own unbounded queue.
      const size = Number((db as { options?: { max?: unknown } }).options?.max ?? 10) || 10;
      const concurrent = settings.gate?.concurrent ?? size;
      this.gate = new ConnectionGate({
        concurrent,
        queued: settings.gate?.queued ?? 4 * concurrent,
        waitMs: settings.gate?.waitMs ?? 1000,
        shedAfterMs: settings.gate?.shedAfterMs,
      });
    }
  }

  /**
   * `name`: on a pool, the statement is prepared once per connection under that name (its text
   * must never change), so the server plans it once instead of on every call: for the source's
   * most frequent statements, whose planning on a table of many indexes costs more than running them.
   */
  async rows<R>(text: string, params: unknown[], signal?: AbortSignal, name?: string): Promise<R[]> {
    signal?.throwIfAborted();
    const db = this.db;
    try {
      if (isPool(db)) return await this.onPool<R>(db, text, params, signal, name);
      return await this.onSession<R>(db, text, params, signal);
    } catch (error) {
      throw asBudgetError(error, this.settings.statementTimeoutMs);
    }
  }

  /**
   * Runs one statement outside any call: no caller's signal, never shed, with its own
   * `statement_timeout` of `timeoutMs` on the server (the session's is set back afterwards).
   * For work shared by many later calls (a term's document frequency), which must not die with
   * the budget of the request that happened to start it.
   */
  async sharedRows<R>(text: string, params: unknown[], timeoutMs: number): Promise<R[]> {
    const db = this.db;
    try {
      if (!isPool(db)) return await this.onSession<R>(db, text, params, undefined, timeoutMs);
      const leave = await this.gate!.enter(undefined);
      let pooled: PoolClientLike;
      try {
        pooled = await db.connect();
      } catch (error) {
        leave();
        throw error;
      }
      let broken = false;
      try {
        await this.sessionInfo(pooled);
        await pooled.query(`SELECT set_config('statement_timeout', $1, false)`, [`${timeoutMs}ms`]);
        const { rows } = await pooled.query(text, params);
        const budget = this.settings.statementTimeoutMs;
        await pooled.query(budget === undefined ? 'RESET statement_timeout' : `SELECT set_config('statement_timeout', $1, false)`, budget === undefined ? [] : [`${budget}ms`]);
        return rows as R[];
      } catch (error) {
        // The session may still hold the longer timeout: it is not handed to another call.
        broken = true;
        throw error;
      } finally {
        pooled.release(broken);
        leave();
      }
    } catch (error) {
      throw asBudgetError(error, timeoutMs);
    }
  }

  private async onPool<R>(pool: PoolLike, text: string, params: unknown[], signal: AbortSignal | undefined, name?: string): Promise<R[]> {
    const leave = await this.gate!.enter(signal, callOf(signal));
    let pooled: PoolClientLike;
    // Opening a connection (after a cancel discarded one) can take long on a busy server: the
    // call's signal bounds that wait too; a connection that arrives later goes back to the pool.
    const connecting = pool.connect();
    try {
      pooled = await untilAborted(connecting, signal);
    } catch (error) {
      void connecting.then((late) => late.release(), () => {});
      leave();
      throw error;
    }
    // The gate's slot is given back with the connection, never before.
    const client: PoolClientLike = {
      query: (sql, values) => pooled.query(sql, values),
      release(destroy) {
        pooled.release(destroy);
        leave();
      },
    };
    if (signal?.aborted) {
      client.release();
      throw signal.reason;
    }
    let info: SessionInfo;
    const settingUp = this.sessionInfo(pooled);
    try {
      info = await untilAborted(settingUp, signal);
    } catch (error) {
      // Aborted while the session's settings were applied: the connection is given back once they are.
      void settingUp.then(() => client.release(), () => client.release(true));
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
    // pg's query config: a named statement is parsed and planned once per connection.
    const running =
      name === undefined ? client.query(text, params) : (pooled.query as unknown as (config: object) => Promise<{ rows: unknown[] }>).call(pooled, { name, text, values: params });
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
        cancelling ??= cancelBackend(pool, pooled, info.pid);
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
          const delivered = await cancelling.then(
            () => true,
            () => false,
          );
          // The cancel may still be pending in the backend: a round trip proves it spent, else the connection goes.
          const clean = delivered && (await pooled.query('SELECT 1').then(
            () => true,
            () => false,
          ));
          client.release(!clean);
        });
    });
  }

  /** The backend pid of a pool client, read once, when the client is first seen (and its settings applied). */
  private async sessionInfo(client: PoolClientLike): Promise<SessionInfo> {
    const known = this.sessions.get(client);
    if (known) return known;
    const { rows } = await client.query(this.poolSetup.text, this.poolSetup.params);
    const info = { pid: Number((rows[0] as { pid: unknown }).pid) };
    this.sessions.set(client, info);
    return info;
  }

  private async onSession<R>(
    db: Queryable,
    text: string,
    params: unknown[],
    signal: AbortSignal | undefined,
    timeout: number | undefined = this.settings.statementTimeoutMs,
  ): Promise<R[]> {
    const setup = this.sessionSetup;
    if (setup.params.length > 0) {
      this.singleSessionReady ??= db.query(setup.text, setup.params).then(
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
  Client?: new (options: unknown) => Queryable & {
    connect(): Promise<unknown>;
    end(): Promise<unknown>;
    host?: string;
    port?: number;
    connection?: PgConnection;
  };
  options?: unknown;
}

/** The part of pg's `Connection` a cancel request uses (what pg's own `Client#cancel` does). */
interface PgConnection {
  connect(port: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
  once(event: string, listener: () => void): void;
}

/** What a `pg` client exposes of its session: what a cancel request names. */
interface PgClientInternals {
  processID?: number | null;
  secretKey?: number | null;
}

/** Longest wait for a cancel to be delivered; past it the connection is discarded. */
const CANCEL_WAIT_MS = 2_000;

/**
 * Asks the server to cancel what backend `pid` runs. On a `pg.Pool` whose client is a `pg`
 * client: the protocol's cancel request (pg's `Client#cancel`) on a connection of its own, which
 * the server answers by closing it once the backend is signalled, without a session's start-up.
 * Otherwise `pg_cancel_backend` over a new `pg.Client` with the pool's options (so a full pool
 * cannot delay it), or through the pool. Resolves once the cancel is delivered.
 */
async function cancelBackend(pool: PoolLike, target: PoolClientLike, pid: number): Promise<void> {
  const { Client, options } = pool as PoolLike & PgPoolInternals;
  const session = target as PoolClientLike & PgClientInternals;
  if (typeof Client === 'function' && options !== undefined) {
    const canceller = new Client(options);
    const { connection, host, port } = canceller;
    const { processID, secretKey } = session;
    if (connection !== undefined && typeof connection.cancel === 'function' && typeof processID === 'number' && typeof secretKey === 'number' && port !== undefined) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('paperlist: the cancel request was not answered')), CANCEL_WAIT_MS);
        const settle = (error?: Error) => {
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        };
        // The server closes the connection once it has signalled the backend.
        connection.once('end', () => settle());
        connection.once('error', () => settle(new Error('paperlist: the cancel request failed')));
        connection.once('connect', () => connection.cancel(processID, secretKey));
        if (host !== undefined && host.startsWith('/')) connection.connect(`${host}/.s.PGSQL.${port}`);
        else connection.connect(port, host);
      });
      return;
    }
    await canceller.connect();
    try {
      await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
    } finally {
      await canceller.end().catch(() => {});
    }
    return;
  }
  await pool.query('SELECT pg_cancel_backend($1)', [pid]);
}

interface SettingsStatement {
  text: string;
  params: unknown[];
}

/** One statement that applies the session settings (and selects `extra`, when given). */
function settingsStatement(settings: SessionSettings, extra: string): SettingsStatement {
  const params: unknown[] = [];
  const items = extra === '' ? [] : [extra];
  const set = (name: string, value: string) => {
    params.push(name, value);
    items.push(`set_config($${params.length - 1}, $${params.length}, false)`);
  };
  if (settings.statementTimeoutMs !== undefined) set('statement_timeout', `${settings.statementTimeoutMs}ms`);
  if (!settings.jit) set('jit', 'off');
  return { text: `SELECT ${items.join(', ')}`, params };
}
