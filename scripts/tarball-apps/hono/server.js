// Hono on Node: the core's WHATWG fetch handler behind a Hono route, no adapter package.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler, createMemorySource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';

const handle = createFetchHandler({ source: createMemorySource(await loadSamplePapers()), mount: '/api/v1' });
const app = new Hono();
app.all('/api/v1/*', (c) => handle(c.req.raw));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
