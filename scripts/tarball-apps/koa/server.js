// The root README's Koa snippet, with the newest @koa/router the adapter accepts.
import Koa from 'koa';
import { createMemorySource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { papersRouter } from '@paperlist/koa';

const app = new Koa();
app.use(papersRouter({ source: createMemorySource(await loadSamplePapers()), prefix: '/api/v1' }).routes());
const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
