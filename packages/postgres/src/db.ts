/**
 * The database handles this package accepts. Everything goes through one method,
 * `query(text, params)`, which `pg.Pool`, `pg.Client`, a pool client and PGlite all have,
 * so the same SQL runs on a server and in-process.
 */

/** Anything that runs one parameterised SQL statement: `pg.Pool`, `pg.Client`, PGlite. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A client checked out of a pool (`pg.PoolClient`). */
export interface PoolClientLike extends Queryable {
  release(destroy?: boolean | Error): void;
}

/** A pool of connections (`pg.Pool`): queries can be cancelled and run side by side. */
export interface PoolLike extends Queryable {
  connect(): Promise<PoolClientLike>;
}

/** A handle that can run a callback inside a transaction without `BEGIN` of its own (PGlite). */
interface TransactionalLike extends Queryable {
  transaction<T>(callback: (tx: Queryable) => Promise<T>): Promise<T>;
}

/** Whether `db` is a pool (`pg.Pool`): it hands out clients and counts them. */
export function isPool(db: Queryable): db is PoolLike {
  const candidate = db as Partial<PoolLike> & { totalCount?: unknown };
  return typeof candidate.connect === 'function' && typeof candidate.totalCount === 'number';
}

/** Whether `db` is PGlite (in-process, one session, no cancellation). */
export function isPGlite(db: Queryable): boolean {
  const candidate = db as { waitReady?: unknown; transaction?: unknown; dumpDataDir?: unknown };
  return typeof candidate.transaction === 'function' && 'waitReady' in candidate;
}

function isTransactional(db: Queryable): db is TransactionalLike {
  return !isPool(db) && typeof (db as Partial<TransactionalLike>).transaction === 'function';
}

/** The rows of a query, typed by the caller (the SQL decides their shape). */
export async function queryRows<R>(db: Queryable, text: string, params: unknown[] = []): Promise<R[]> {
  const result = await db.query(text, params);
  return result.rows as R[];
}

/**
 * Runs `callback` on one session: a client checked out of a pool (released afterwards), or
 * the handle itself when it is one session already (`pg.Client`, PGlite).
 */
export async function withSession<T>(db: Queryable, callback: (session: Queryable) => Promise<T>): Promise<T> {
  if (!isPool(db)) return callback(db);
  const client = await db.connect();
  let failed: unknown;
  try {
    return await callback(client);
  } catch (error) {
    failed = error;
    throw error;
  } finally {
    // A client whose session may be in a bad state (an error inside COPY) is not reused.
    client.release(failed instanceof Error && isConnectionBroken(failed) ? failed : undefined);
  }
}

/**
 * Runs `callback` inside one transaction, committed when it resolves and rolled back when it
 * throws. PGlite's own `transaction()` is used there so that no other caller's statement
 * interleaves with ours.
 */
export async function withTransaction<T>(db: Queryable, callback: (tx: Queryable) => Promise<T>): Promise<T> {
  if (isTransactional(db)) return db.transaction((tx) => callback(tx));
  return withSession(db, async (session) => {
    await session.query('BEGIN');
    try {
      const result = await callback(session);
      await session.query('COMMIT');
      return result;
    } catch (error) {
      await session.query('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}

function isConnectionBroken(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code !== 'string' || code.startsWith('08');
}

/** The PostgreSQL error code of an error, if it has one (`57014`: query canceled). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `"name"`: an identifier quoted for SQL. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `'text'`: a string literal for SQL (only for DDL, where parameters are not allowed). */
export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
