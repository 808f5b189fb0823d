// A child process serving the sample with one adapter, for the load and soak runs.
// Usage: serve-app.ts express|koa  → prints `ready <port>` on stdout.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Koa from 'koa';
import { createMemorySource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { papersRouter as expressRouter } from '@paperlist/express';
import { papersRouter as koaRouter } from '@paperlist/koa';

const source = createMemorySource(await loadSamplePapers());
const kind = process.argv[2];
let listener: Parameters<typeof createServer>[1];
if (kind === 'express') {
  const app = express();
  app.use('/api/v1', expressRouter({ source }));
  listener = app;
} else if (kind === 'koa') {
  const app = new Koa();
  app.use(koaRouter({ source, prefix: '/api/v1' }).routes());
  listener = app.callback();
} else {
  throw new Error(`unknown app ${kind}`);
}
const server = createServer(listener);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
