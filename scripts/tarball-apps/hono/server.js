// Hono on Node: the core's WHATWG fetch handler as a Hono middleware, no adapter package. Started
// with --disallow-code-generation-from-strings, as strict as a Cloudflare Worker about eval.
// With `fallthrough: true` the app's own routes under /api/v1 stay reachable.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createFetchHandler, createMemorySource } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';

const handle = createFetchHandler({ source: createMemorySource(await loadSamplePapers()), mount: '/api/v1', fallthrough: true });
const app = new Hono();
app.use('/api/v1/*', async (c, next) => (await handle(c.req.raw)) ?? next());
app.get('/api/v1/healthz', (c) => c.text('ok'));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
