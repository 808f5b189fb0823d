/**
 * The fetch handler inside Hono, the way the core README shows: a middleware under `/api/v1`
 * beside the app's own routes. With `fallthrough: true` paths under the mount that are not the
 * API's reach the sibling routes (and Hono's own 404) instead of the handler's JSON 404.
 */
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, createMemorySource, PaperlistOptionsError, type PaperSource } from '../src/index.js';
import { makePaper } from './make-paper.js';

let source: PaperSource;
beforeAll(() => {
  source = createMemorySource([makePaper({ id: 'a', title: 'Attention' }), makePaper({ id: 'b', title: 'Bert' })]);
});

function appWith(mount: (app: Hono) => void): Hono {
  const app = new Hono();
  app.get('/api/v1/healthz', (c) => c.text('ok'));
  mount(app);
  app.get('/api/v1/version', (c) => c.json({ version: 1 }));
  return app;
}

describe('createFetchHandler in Hono', () => {
  it('as middleware with fallthrough: the API, and sibling routes before and after it', async () => {
    const app = appWith((app) => {
      const handle = createFetchHandler({ source, mount: '/api/v1', fallthrough: true });
      app.use('/api/v1/*', async (c, next) => (await handle(c.req.raw)) ?? next());
    });
    const list = await app.request('http://localhost/api/v1/papers/?items_per_page=1');
    expect(list.status).toBe(200);
    const body = (await list.json()) as { count: number; next: string; results: { id: string }[] };
    expect(body).toMatchObject({ count: 2, next: 'http://localhost/api/v1/papers/?items_per_page=1&page=2' });
    expect(body.results.map((paper) => paper.id)).toEqual(['a']);
    expect((await app.request('http://localhost/api/v1/papers/b/')).status).toBe(200);
    expect((await app.request('http://localhost/api/v1/papers/zzz/')).status).toBe(404); // the API's own 404
    expect((await app.request('http://localhost/api/v1/papers')).status).toBe(301);
    expect((await app.request('http://localhost/api/v1/schema/')).status).toBe(200);
    expect(await (await app.request('http://localhost/api/v1/healthz')).text()).toBe('ok');
    expect(await (await app.request('http://localhost/api/v1/version')).json()).toEqual({ version: 1 });
    const unknown = await app.request('http://localhost/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe('404 Not Found'); // Hono's, not the API's
  });

  it('without fallthrough, every path under the mount gets the API (a JSON 404 for the others)', async () => {
    const app = new Hono();
    const handle = createFetchHandler({ source, mount: '/api/v1' });
    app.all('/api/v1/*', (c) => handle(c.req.raw));
    app.get('/api/v1/version', (c) => c.json({ version: 1 }));
    const shadowed = await app.request('http://localhost/api/v1/version');
    expect(shadowed.status).toBe(404);
    expect(await shadowed.json()).toEqual({ detail: 'Not found.' });
  });
});

describe('createFetchHandler options', () => {
  it('answers undefined with fallthrough, a JSON 404 without', async () => {
    const through = createFetchHandler({ source, mount: '/api/v1', fallthrough: true });
    expect(await through(new Request('http://localhost/elsewhere'))).toBeUndefined();
    expect(await through(new Request('http://localhost/api/v1/papers-not/'))).toBeUndefined();
    const owning = createFetchHandler({ source, mount: '/api/v1' });
    const head = await owning(new Request('http://localhost/elsewhere', { method: 'HEAD' }));
    expect(head.status).toBe(404);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(await head.text()).toBe('');
  });

  it('refuses a fallthrough that is not a boolean, at construction', () => {
    expect(() => createFetchHandler({ source, fallthrough: 'yes' as never })).toThrow(PaperlistOptionsError);
  });
});
