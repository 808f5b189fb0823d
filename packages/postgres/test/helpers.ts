import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { AnnotationMap, Paper } from '@paperlist/core';
import { createPostgresSource, importPapers, migrate, type PostgresSource, type PostgresSourceOptions, type Queryable } from '../src/index.js';

/** The test server's URL (`.ci/run` sets it); tests that need a server skip without it. */
export const TEST_DATABASE_URL = process.env['PAPERLIST_TEST_DATABASE_URL'];

/** Says once, in the test output, why the server tests of a file are skipped. */
export function noteServerSkip(file: string): void {
  if (TEST_DATABASE_URL === undefined) {
    console.warn(`${file}: PAPERLIST_TEST_DATABASE_URL is not set; skipping the tests that need a PostgreSQL server`);
  }
}

/** A schema name of its own for one test file or block, so parallel files never collide. */
export function randomSchema(prefix = 'paperlist_test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A pool on the test server. */
export function serverPool(options: pg.PoolConfig = {}): pg.Pool {
  return new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4, ...options });
}

/** Drops a schema and everything in it. */
export async function dropSchema(db: Queryable, schema: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** An in-process database, with pg_trgm loaded (the trigram indexes of the substring filters). */
export async function newPGlite(): Promise<PGlite> {
  const db = new PGlite({ extensions: { pg_trgm } });
  await db.waitReady;
  return db;
}

/** Migrates `schema`, imports `papers` and opens a source on it. */
export async function sourceWith(
  db: Queryable,
  schema: string,
  papers: readonly Paper[],
  options: Omit<PostgresSourceOptions, 'db' | 'schema'> = {},
  annotations?: AnnotationMap,
): Promise<PostgresSource> {
  await migrate(db, { schema });
  await importPapers(db, papers, { schema, ...(annotations === undefined ? {} : { annotations }) });
  return createPostgresSource({ db, schema, ...options });
}

/** A handle that records the statements it runs (for routing tests). */
export function recording(db: Queryable): Queryable & { statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    query(text: string, params?: unknown[]) {
      statements.push(text);
      return db.query(text, params);
    },
  };
}
