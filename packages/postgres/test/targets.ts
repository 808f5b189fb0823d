import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Queryable } from '../src/index.js';
import { dropSchema, newPGlite, randomSchema, serverPool, TEST_DATABASE_URL } from './helpers.js';

/** A database to run a test block on, with a fresh schema per `schema()` call. */
export interface Target {
  name: string;
  /** Opens the database (once per block). */
  open(): Promise<void>;
  db(): Queryable;
  /** A schema name of its own, dropped by `close()`. */
  schema(): string;
  close(): Promise<void>;
}

/** PGlite (always) and the server (when PAPERLIST_TEST_DATABASE_URL is set). */
export function targets(): Target[] {
  const list: Target[] = [pgliteTarget()];
  if (TEST_DATABASE_URL !== undefined) list.push(serverTarget());
  return list;
}

function pgliteTarget(): Target {
  let db: PGlite | undefined;
  let n = 0;
  return {
    name: 'PGlite',
    async open() {
      db = await newPGlite();
    },
    db: () => db!,
    schema: () => `t${++n}`,
    close: async () => {
      await db?.close();
    },
  };
}

function serverTarget(): Target {
  let pool: pg.Pool | undefined;
  const schemas: string[] = [];
  return {
    name: 'server',
    async open() {
      pool = serverPool();
    },
    db: () => pool!,
    schema() {
      const schema = randomSchema();
      schemas.push(schema);
      return schema;
    },
    async close() {
      if (!pool) return;
      for (const schema of schemas) await dropSchema(pool, schema);
      await pool.end();
    },
  };
}
