/**
 * The HTTP benchmark's server process: builds the engine once from the corpus, then serves it
 * with Express (@paperlist/express) and Koa (@paperlist/koa), plus an Express route that sends
 * a prebuilt body as large as the mixed set's average answer. Prints one line
 * `READY {ports, requests, averageBytes}` and serves until killed.
 * Usage: server.ts <500k|1m>
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Router from '@koa/router';
import express from 'express';
import Koa from 'koa';
import { createPapersHandler, type PapersHandler } from '@paperlist/core';
import { createMemorySourceFromStream } from '@paperlist/core/node';
import { papersRouter as expressPapers } from '@paperlist/express';
import { papersRouter as koaPapers } from '@paperlist/koa';
import type { CorpusSize } from '../args.js';
import { corpusPapers } from '../corpus.js';
import { mixedRequests } from './mixed-requests.js';

const size = (process.argv[2] ?? '500k') as CorpusSize;
const source = await createMemorySourceFromStream(corpusPapers(size));

// Real answers, through the core handler, to size the prebuilt body and check the set.
const handle: PapersHandler = createPapersHandler({ source });
const requests = await mixedRequests(source);
let bytes = 0;
for (const path of requests) {
  const answer = await handle({ method: 'GET', url: path, headers: { host: 'localhost' }, basePath: '/api/v1' });
  if (answer === null || answer.status !== 200) throw new Error(`${path}: ${answer?.status}`);
  bytes += answer.body?.byteLength ?? 0;
}
const averageBytes = Math.round(bytes / requests.length);
const prebuilt = Buffer.alloc(averageBytes, 0x20);
prebuilt.write('{"count":0,"next":null,"previous":null,"results":[]}');

const app = express();
app.use('/api/v1', expressPapers({ source }));
app.get(/^\/prebuilt\//, (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(prebuilt.byteLength) });
  res.end(prebuilt);
});

const koa = new Koa();
const router: Router = koaPapers({ source, prefix: '/api/v1' });
koa.use(router.routes()).use(router.allowedMethods());

const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const expressPort = await listen(createServer(app));
const koaPort = await listen(createServer(koa.callback()));
console.log(`READY ${JSON.stringify({ expressPort, koaPort, requests, averageBytes, papers: source.size })}`);
