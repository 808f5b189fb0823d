import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import express from 'express';
import type { PGlite } from '@electric-sql/pglite';
import { defineHttpConformanceSuite, type ConformanceServerOptions, type RunningServer } from '@paperlist/conformance';
import { papersRouter } from '@paperlist/express';
import { newPGlite, sourceWith } from './helpers.js';

// The HTTP conformance suite, unchanged, with this source behind Express: one PGlite, a
// schema per catalogue the suite asks for.
let db: Promise<PGlite> | undefined;
let schemas = 0;
afterAll(async () => {
  if (db) await (await db).close();
});

async function startExpress({ mount, ...options }: ConformanceServerOptions): Promise<RunningServer> {
  const app = express();
  app.use(mount, papersRouter(options));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

defineHttpConformanceSuite({
  name: 'express 5 with the postgres source (PGlite)',
  start: startExpress,
  async makeSource(papers) {
    db ??= newPGlite();
    return sourceWith(await db, `catalogue_${++schemas}`, papers);
  },
});
