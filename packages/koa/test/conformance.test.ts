import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import Koa from 'koa';
import { createMemorySource, type PaperSource } from '@paperlist/core';
import {
  defineHttpConformanceSuite,
  fixturePapers,
  rawRequest,
  type ConformanceServerOptions,
  type RunningServer,
} from '@paperlist/conformance';
import { papersRouter, type PapersRouterOptions } from '../src/index.js';

/** What runs on the app before the papers router is mounted, and after it. */
interface AppHooks {
  before?: (app: Koa) => void;
  after?: (app: Koa) => void;
}

async function startKoa(options: PapersRouterOptions, hooks: AppHooks = {}): Promise<RunningServer> {
  const app = new Koa();
  hooks.before?.(app);
  app.use(papersRouter(options).routes());
  hooks.after?.(app);
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
  name: 'koa',
  start: ({ mount, ...options }: ConformanceServerOptions) => startKoa({ ...options, prefix: mount }),
});

describe('@paperlist/koa', () => {
  const source = createMemorySource([...fixturePapers]);
  const servers: RunningServer[] = [];
  const start = async (options: PapersRouterOptions, hooks?: AppHooks) => {
    const server = await startKoa(options, hooks);
    servers.push(server);
    return server;
  };
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('honours X-Forwarded-Host and -Proto when app.proxy is set', async () => {
    const server = await start(
      { source, prefix: '/api/v1', allowedHosts: ['papers.example.org'] },
      { before: (app) => (app.proxy = true) },
    );
    const res = await rawRequest(server.url, '/api/v1/papers/?items_per_page=1', {
      headers: { 'x-forwarded-host': 'papers.example.org', 'x-forwarded-proto': 'https' },
    });
    expect(JSON.parse(res.text).next).toBe('https://papers.example.org/api/v1/papers/?items_per_page=1&page=2');
    const forged = await rawRequest(server.url, '/api/v1/papers/', { headers: { 'x-forwarded-host': 'evil.example' } });
    expect(forged.status).toBe(400);
  });

  it('works without a prefix and with a trailing slash on it', async () => {
    const root = await start({ source });
    expect(JSON.parse((await rawRequest(root.url, '/papers/?items_per_page=1')).text).next).toBe(
      `${root.url}/papers/?items_per_page=1&page=2`,
    );
    const slashed = await start({ source, prefix: '/api/v1/' });
    expect((await rawRequest(slashed.url, '/api/v1/papers/deep-learning/')).status).toBe(200);
    expect((await rawRequest(slashed.url, '/api/v1/papers')).headers['location']).toBe('/api/v1/papers/');
  });

  it('hands other paths to the next middleware', async () => {
    const server = await start(
      { source, prefix: '/api/v1' },
      {
        after: (app) =>
          app.use((ctx) => {
            ctx.status = 404;
            ctx.body = 'app 404';
          }),
      },
    );
    for (const path of ['/api/v1/papers/a/b/', '/api/v1/authors/']) {
      const res = await rawRequest(server.url, path);
      expect(res.status).toBe(404);
      expect(res.text).toBe('app 404');
    }
  });

  it('reports a failing source on the app error channel by default', async () => {
    const failure = new Error('source down');
    const broken: PaperSource = { list: () => Promise.reject(failure), get: () => Promise.reject(failure) };
    const reported: { error: unknown; path: string }[] = [];
    const server = await start(
      { source: broken, prefix: '/api/v1' },
      { before: (app) => app.on('error', (error: unknown, ctx: Koa.Context) => reported.push({ error, path: ctx.path })) },
    );
    const res = await rawRequest(server.url, '/api/v1/papers/?q=x');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/json');
    expect(reported).toEqual([{ error: failure, path: '/api/v1/papers/' }]);
  });

  it('lets an error thrown by the handler propagate to upstream middleware', async () => {
    const server = await start(
      { source, prefix: '/api/v1' },
      {
        before: (app) => {
          app.use(async (ctx, next) => {
            try {
              await next();
            } catch (error) {
              ctx.status = 418;
              ctx.body = `caught ${(error as Error).message}`;
            }
          });
          app.use((ctx, next) => {
            // Reading the Accept header inside the core throws: the handler rejects.
            Object.defineProperty(ctx.req.headers, 'accept', {
              enumerable: true,
              get() {
                throw new Error('boom');
              },
            });
            return next();
          });
        },
      },
    );
    const res = await rawRequest(server.url, '/api/v1/papers/');
    expect(res.status).toBe(418);
    expect(res.text).toBe('caught boom');
  });

  it('writes take ctx.request.rawBody when a body parser read the body first', async () => {
    const paper = { ...fixturePapers[0]!, title: 'Parsed First' };
    const server = await start(
      { source: createMemorySource([...fixturePapers]), prefix: '/api/v1', writeToken: 'tok' },
      {
        // What koa-bodyparser and @koa/bodyparser leave behind: the stream read, its text in rawBody.
        before: (app) =>
          app.use(async (ctx, next) => {
            const chunks: Buffer[] = [];
            for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
            (ctx.request as unknown as { rawBody: string }).rawBody = Buffer.concat(chunks).toString('utf8');
            return next();
          }),
      },
    );
    const put = await rawRequest(server.url, `/api/v1/papers/${paper.id}/`, {
      method: 'PUT',
      headers: { authorization: 'Token tok', 'content-type': 'application/json' },
      body: JSON.stringify(paper),
    });
    expect([put.status, JSON.parse(put.text).title]).toEqual([200, 'Parsed First']);
  });

  it('aborts the signal passed to the source when the client disconnects', async () => {
    let listCalled!: () => void;
    const called = new Promise<void>((resolve) => (listCalled = resolve));
    let sawAbort!: () => void;
    const aborted = new Promise<void>((resolve) => (sawAbort = resolve));
    const hanging: PaperSource = {
      list: (_query, options) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener('abort', () => {
            sawAbort();
            reject(new Error('aborted'));
          });
          listCalled();
        }),
      get: () => Promise.resolve(null),
    };
    const server = await start({ source: hanging, prefix: '/api/v1', onError: () => {} });
    const { port } = new URL(server.url);
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/papers/' });
    req.on('error', () => {});
    req.end();
    await called;
    req.destroy();
    await aborted;
  });
});
