import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import express from 'express';
import pg from 'pg';
import { SAMPLE_CATALOG_PATH } from '@paperlist/core/sample';
import { papersRouter } from '@paperlist/express';
import { createPostgresSource, importPapers, migrate, type Queryable } from '@paperlist/postgres';

/** A running example server: its origin and how to stop it. */
export interface ExampleServer {
  url: string;
  close(): Promise<void>;
}

/** Where the catalogue lives. Without `db`, an in-process PGlite database is used. */
export interface ExampleOptions {
  port?: number;
  host?: string;
  /** The primary (migrations and the first import). */
  db?: Queryable;
  /** A read replica for the requests; default `db`. */
  readDb?: Queryable;
  schema?: string;
}

/**
 * Express 5 serving the papers API from PostgreSQL at `/api/v1/papers/`: migrates the schema,
 * imports the embedded 4,000-paper sample when the table is empty, and serves with a 5 s
 * statement timeout. `port` 0 picks a free one.
 */
export async function startServer(options: ExampleOptions = {}): Promise<ExampleServer> {
  const { port = 0, host = '127.0.0.1', schema = 'paperlist' } = options;
  const pglite = options.db === undefined ? new PGlite() : undefined;
  const db = options.db ?? (pglite as unknown as Queryable);
  await migrate(db, { schema });
  const { rows } = await db.query(`SELECT EXISTS (SELECT 1 FROM "${schema}".papers) AS found`);
  if (!(rows[0] as { found: boolean }).found) {
    const result = await importPapers(db, SAMPLE_CATALOG_PATH, { schema });
    console.log(`imported the sample: ${result.records} papers in ${(result.durationMs / 1000).toFixed(1)} s`);
  }
  const source = await createPostgresSource({ db, readDb: options.readDb ?? db, schema, statementTimeoutMs: 5000 });

  const app = express();
  app.use('/api/v1', papersRouter({ source }));
  const server = app.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await pglite?.close();
    },
  };
}

// `tsx src/server.ts` (the `start` script). PAPERLIST_DATABASE_URL (the variable `paperlist import`
// and `serve` read too): the primary; PAPERLIST_DATABASE_READ_URL: a replica.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.env['PAPERLIST_DATABASE_URL'];
  const readUrl = process.env['PAPERLIST_DATABASE_READ_URL'];
  const primary = url === undefined ? undefined : new pg.Pool({ connectionString: url, max: 4 });
  const replica = readUrl === undefined ? undefined : new pg.Pool({ connectionString: readUrl, max: 16 });
  const options: ExampleOptions = { port: Number(process.env['PORT'] ?? 3000) };
  if (primary) options.db = primary as unknown as Queryable;
  if (replica) options.readDb = replica as unknown as Queryable;
  const { url: origin } = await startServer(options);
  console.log(`paperlist (express + ${primary ? 'PostgreSQL' : 'PGlite'}): ${origin}/api/v1/papers/`);
}
