import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySource, type PaperSource } from '@paperlist/core';
import { createRequestListener } from '@paperlist/core/node';
import { defineHttpConformanceSuite, fixturePapers, rawRequest, type RunningServer } from '../src/index.js';

async function serve(listener: Parameters<typeof createServer>[1]): Promise<RunningServer & { server: Server }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

defineHttpConformanceSuite({
  name: 'core node:http request listener',
  start: ({ mount, ...options }) => serve(createRequestListener({ ...options, mount })),
  unmatchedPaths: 'not-found-json',
});

describe('createRequestListener beyond the contract', () => {
  const source = createMemorySource([...fixturePapers]);
  const running: RunningServer[] = [];
  afterAll(async () => Promise.all(running.map((s) => s.close())));
  const start = async (listener: Parameters<typeof createServer>[1]) => {
    const server = await serve(listener);
    running.push(server);
    return server.url;
  };

  it.each(['a b', '', 'héllo', 'x'.repeat(5000), '[::1', '127.0.0.1:99999'])('answers a request with Host %j without throwing', async (host) => {
    const origin = await start(createRequestListener({ source, mount: '/api/v1', allowedHosts: ['*'] }));
    const response = await rawRequest(origin, '/api/v1/papers/?items_per_page=1', { headers: { host } });
    expect([200, 400]).toContain(response.status);
    expect(response.headers['content-type']).toBe('application/json');
    const strict = await start(createRequestListener({ source, mount: '/api/v1' }));
    // Without a Host the request's origin is unknown (nothing to check); local names pass on any port.
    expect((await rawRequest(strict, '/api/v1/papers/', { headers: { host } })).status).toBe(host === '' || host.startsWith('127.0.0.1:') ? 200 : 400);
  });

  it('hands other paths to next(), and answers 404 JSON without one', async () => {
    const listener = createRequestListener({ source, mount: '/api/v1' });
    const origin = await start((req, res) =>
      listener(req, res, () => {
        res.statusCode = 418;
        res.end('elsewhere');
      }),
    );
    expect((await rawRequest(origin, '/elsewhere')).status).toBe(418);
    expect((await rawRequest(origin, '/api/v1/papers/')).status).toBe(200);
    const bare = await start(createRequestListener({ source, mount: '/api/v1' }));
    const missing = await rawRequest(bare, '/elsewhere');
    expect([missing.status, missing.text]).toEqual([404, '{"detail":"Not found."}']);
  });

  it('aborts the source call when the client goes away', async () => {
    let aborted: Promise<void> | undefined;
    const hanging: PaperSource = {
      list: (_query, options) => {
        aborted = new Promise((resolve) => options?.signal?.addEventListener('abort', () => resolve()));
        return new Promise(() => {});
      },
      get: async () => null,
    };
    const origin = await start(createRequestListener({ source: hanging, mount: '' }));
    const controller = new AbortController();
    const request = fetch(`${origin}/papers/`, { signal: controller.signal }).catch(() => undefined);
    while (aborted === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await request;
    await expect(aborted).resolves.toBeUndefined();
  });

  it('answers 503 (and reports it) when the source throws instead of rejecting, and keeps serving', async () => {
    const errors: unknown[] = [];
    const throwing: PaperSource = { list: () => { throw new TypeError('not even a promise'); }, get: async () => null };
    const origin = await start(createRequestListener({ source: throwing, mount: '', onError: (error) => errors.push(error) }));
    const response = await rawRequest(origin, '/papers/');
    expect(response.status).toBe(503);
    expect(errors).toHaveLength(1);
    expect((await rawRequest(origin, '/papers/x/')).status).toBe(404);
  });

  it('answers 413 to a chunked write body past maxWriteBytes while the client is still sending, and reads the rest away', async () => {
    const origin = await start(createRequestListener({ source: createMemorySource([...fixturePapers]), mount: '', writeToken: 'tok', maxWriteBytes: 2000 }));
    const { port } = new URL(origin);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/papers/', method: 'POST', agent, headers: { authorization: 'Token tok', 'content-type': 'application/x-ndjson' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      const line = `${JSON.stringify({ ...fixturePapers[0]!, id: 'x' })}\n`;
      let sent = 0;
      const pump = () => {
        while (sent < 200) {
          sent++;
          if (!req.write(line)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(answer).toEqual({ status: 413, text: '{"detail":"Request body too large: at most 2000 bytes, received and decompressed."}' });
    // The same kept-alive connection answers the next request.
    const next = await new Promise<number>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: '/papers/x/', agent }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject).end();
    });
    expect(next).toBe(404);
    agent.destroy();
  });

  it('reads X-Forwarded-Proto and -Host only from trusted proxies', async () => {
    const headers = { 'x-forwarded-host': 'papers.example.org', 'x-forwarded-proto': 'https' };
    const trusting = await start(createRequestListener({ source, mount: '', trustProxy: 'loopback', allowedHosts: ['papers.example.org', '127.0.0.1'] }));
    expect(JSON.parse((await rawRequest(trusting, '/papers/?items_per_page=1', { headers })).text).next).toBe('https://papers.example.org/papers/?items_per_page=1&page=2');
    const plain = await start(createRequestListener({ source, mount: '', allowedHosts: ['papers.example.org', '127.0.0.1'] }));
    expect(JSON.parse((await rawRequest(plain, '/papers/?items_per_page=1', { headers })).text).next).toBe(`${plain}/papers/?items_per_page=1&page=2`);
  });
});
