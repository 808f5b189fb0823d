// An Express 5 app in strict TypeScript: the packages' types must fit Express 5's own.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createMemorySource, type Paper, type PaperSource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { papersRouter, type PapersRouterOptions } from '@paperlist/express';

const papers: Paper[] = await loadSamplePapers();
const source: PaperSource = createMemorySource(papers);
const options: PapersRouterOptions = { source, maxPageSize: 200, onError: (error) => console.error(error) };

const app = express();
app.use('/api/v1', papersRouter(options));
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening on http://127.0.0.1:${port}`);
});
