import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import express4 from 'express';
import express5 from 'express5';
import { createMemorySource, type PaperSource } from '@paperlist/core';
import {
  defineHttpConformanceSuite,
  fixturePapers,
  rawRequest,
  type ConformanceServerOptions,
  type RunningServer,
} from '@paperlist/conformance';
import { papersRouter } from '../src/index.js';

type ExpressFactory = typeof express4;

type ExpressApp = ReturnType<ExpressFactory>;

/** What runs on the app before the papers API is mounted (settings, routers) and after it. */
interface AppHooks {
  before?: (app: ExpressApp) => void;
  after?: (app: ExpressApp) => void;
}

/** An app with the papers API mounted at `mount`. */
async function startExpress(
  express: ExpressFactory,
  { mount, ...options }: ConformanceServerOptions,
  hooks: AppHooks = {},
): Promise<RunningServer> {
  const app = express();
  hooks.before?.(app);
  app.use(mount, papersRouter(options));
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

for (const [name, express] of [
  ['express 4', express4],
  ['express 5', express5],
] as const) {
  defineHttpConformanceSuite({ name, start: (options) => startExpress(express, options) });

  describe(`@paperlist/express on ${name}`, () => {
    const source = createMemorySource([...fixturePapers]);
    const servers: RunningServer[] = [];
    const start = async (options: ConformanceServerOptions, hooks?: AppHooks) => {
      const server = await startExpress(express, options, hooks);
      servers.push(server);
      return server;
    };
    afterAll(() => Promise.all(servers.map((server) => server.close())));

    it('honours X-Forwarded-Host and -Proto when the app trusts the proxy', async () => {
      const server = await start(
        { source, mount: '/api/v1', allowedHosts: ['papers.example.org'] },
        { before: (app) => app.set('trust proxy', true) },
      );
      const res = await rawRequest(server.url, '/api/v1/papers/?items_per_page=1', {
        headers: { 'x-forwarded-host': 'papers.example.org, inner.proxy', 'x-forwarded-proto': 'https' },
      });
      expect(JSON.parse(res.text).next).toBe('https://papers.example.org/api/v1/papers/?items_per_page=1&page=2');
      const forged = await rawRequest(server.url, '/api/v1/papers/', { headers: { 'x-forwarded-host': 'evil.example' } });
      expect(forged.status).toBe(400);
    });

    it('keeps the Host port when trusting the proxy but no X-Forwarded-Host is sent', async () => {
      const server = await start({ source, mount: '/api/v1' }, { before: (app) => app.set('trust proxy', true) });
      const res = await rawRequest(server.url, '/api/v1/papers/?items_per_page=1', {
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(JSON.parse(res.text).next).toBe(`${server.url.replace('http:', 'https:')}/api/v1/papers/?items_per_page=1&page=2`);
    });

    it('works mounted at the root and inside a nested router', async () => {
      const root = await start({ source, mount: '/' });
      const res = await rawRequest(root.url, '/papers/?items_per_page=1');
      expect(JSON.parse(res.text).next).toBe(`${root.url}/papers/?items_per_page=1&page=2`);

      const nested = await start({ source, mount: '/unused' }, {
        before: (app) => {
          const api = express.Router();
          api.use('/v1', papersRouter({ source }));
          app.use('/api', api);
        },
      });
      const viaNested = await rawRequest(nested.url, '/api/v1/papers/?items_per_page=1');
      expect(JSON.parse(viaNested.text).next).toBe(`${nested.url}/api/v1/papers/?items_per_page=1&page=2`);
      const redirect = await rawRequest(nested.url, '/api/v1/papers?q=x');
      expect(redirect.headers['location']).toBe('/api/v1/papers/?q=x');
    });

    it('hands other paths to the next middleware', async () => {
      const server = await start({ source, mount: '/api/v1' }, {
        after: (app) => app.use((_req, res) => res.status(404).type('text/plain').send('app 404')),
      });
      const res = await rawRequest(server.url, '/api/v1/authors/');
      expect(res.status).toBe(404);
      expect(res.text).toBe('app 404');
    });

    it('passes an error from the handler to next(err)', async () => {
      const server = await start({ source, mount: '/api/v1' }, {
        before: (app) =>
          app.use((req, _res, next) => {
            // Reading the Accept header inside the core throws: the handler rejects.
            Object.defineProperty(req.headers, 'accept', {
              enumerable: true,
              get() {
                throw new Error('boom');
              },
            });
            next();
          }),
        after: (app) =>
          app.use((error: Error, _req: unknown, res: { status(code: number): { send(body: string): void } }, _next: unknown) =>
            res.status(418).send(`caught ${error.message}`),
          ),
      });
      const res = await rawRequest(server.url, '/api/v1/papers/');
      expect(res.status).toBe(418);
      expect(res.text).toBe('caught boom');
    });

    it('writes still work behind express.json(), express.raw() and express.text() mounted before the router', async () => {
      const paper = { ...fixturePapers[0]!, title: 'Parsed First' };
      const parsers = [
        express.json(),
        express.raw({ type: ['application/json', 'application/x-ndjson'] }),
        express.text({ type: ['application/json', 'application/x-ndjson'] }),
      ];
      for (const parser of parsers) {
        const server = await start(
          { source: createMemorySource([...fixturePapers]), mount: '/api/v1', writeToken: 'tok' },
          { before: (app) => app.use(parser) },
        );
        const headers = { authorization: 'Token tok', 'content-type': 'application/json' };
        const put = await rawRequest(server.url, `/api/v1/papers/${paper.id}/`, { method: 'PUT', headers, body: JSON.stringify(paper) });
        expect([put.status, JSON.parse(put.text).title]).toEqual([200, 'Parsed First']);
        // gzip, inflated by the parser: the core must not inflate it again.
        const zipped = gzipSync(JSON.stringify({ ...paper, title: 'Zipped' }));
        const gz = await rawRequest(server.url, `/api/v1/papers/${paper.id}/`, { method: 'PUT', headers: { ...headers, 'content-encoding': 'gzip' }, body: zipped });
        expect([gz.status, JSON.parse(gz.text).title]).toEqual([200, 'Zipped']);
      }
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
      const server = await start({ source: hanging, mount: '/api/v1', onError: () => {} });
      const { port } = new URL(server.url);
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/papers/' });
      req.on('error', () => {});
      req.end();
      await called;
      req.destroy();
      await aborted;
    });
  });
}
