import type { Server } from 'node:http';
import { createMemorySource, type PaperSource } from '@paperlist/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type ServerState } from '../src/server/app.js';
import { closeGracefully, listen, serverOrigin } from '../src/server/http-server.js';
import { paper } from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => closeGracefully(server, 100)));
});

async function start(
  options: { source?: PaperSource; state?: ServerState; trustProxy?: boolean | number | string; mount?: string; allowedHosts?: string[] } = {},
): Promise<{ origin: string; state: ServerState; errors: unknown[] }> {
  const state = options.state ?? { phase: 'ready', papers: 2, inFlight: 0 };
  const errors: unknown[] = [];
  const app = createApp({
    source: options.source ?? createMemorySource([paper('a'), paper('b')]),
    state,
    mount: options.mount ?? '/api/v1',
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }),
    onError: (error) => errors.push(error),
  });
  const server = await listen(app, '127.0.0.1', 0);
  servers.push(server);
  return { origin: serverOrigin(server, '127.0.0.1'), state, errors };
}

describe('the server app', () => {
  it('answers 503 with Retry-After while the catalogue loads, and /healthz says so', async () => {
    const { origin, state } = await start({ state: { phase: 'loading', papers: undefined, inFlight: 0 } });
    const loading = await fetch(`${origin}/api/v1/papers/`);
    expect(loading.status).toBe(503);
    expect(loading.headers.get('retry-after')).toBe('5');
    expect(await loading.json()).toEqual({ detail: 'The catalogue is loading; try again shortly.' });
    const health = await fetch(`${origin}/healthz`);
    expect([health.status, await health.json()]).toEqual([503, { status: 'loading', papers: null }]);

    state.phase = 'ready';
    state.papers = 2;
    expect((await fetch(`${origin}/api/v1/papers/`)).status).toBe(200);
    expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: 'ready', papers: 2 });
  });

  it('gives JSON 404s elsewhere, redirects / to the list, and asks clients to close during a shutdown', async () => {
    const { origin, state } = await start();
    const missing = await fetch(`${origin}/api/v2/papers/`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/json');
    expect(await missing.json()).toEqual({ detail: 'Not found.' });
    const root = await fetch(`${origin}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/api/v1/papers/']);
    state.phase = 'stopping';
    const last = await fetch(`${origin}/api/v1/papers/a/`);
    expect(last.status).toBe(200);
    expect(last.headers.get('connection')).toBe('close');
  });

  it('mounts at the root with --mount /', async () => {
    const { origin } = await start({ mount: '' });
    expect((await fetch(`${origin}/papers/a/`)).status).toBe(200);
  });

  it('builds links from X-Forwarded-* only when trust proxy allows it', async () => {
    const headers = { 'x-forwarded-host': 'papers.example.org', 'x-forwarded-proto': 'https' };
    const trusting = await start({ trustProxy: 'loopback', allowedHosts: ['127.0.0.1', 'papers.example.org'] });
    const trusted = await (await fetch(`${trusting.origin}/api/v1/papers/?items_per_page=1`, { headers })).json();
    expect(trusted.next).toBe('https://papers.example.org/api/v1/papers/?items_per_page=1&page=2');
    const plain = await start({ allowedHosts: ['127.0.0.1', 'papers.example.org'] });
    const untrusted = await (await fetch(`${plain.origin}/api/v1/papers/?items_per_page=1`, { headers })).json();
    expect(untrusted.next).toBe(`${plain.origin}/api/v1/papers/?items_per_page=1&page=2`);
    const forged = await fetch(`${trusting.origin}/api/v1/papers/`, { headers: { 'x-forwarded-host': 'evil.example.com' } });
    expect(forged.status).toBe(400);
  });

  it('answers 503 without internals when the source fails, and reports the error', async () => {
    const failing: PaperSource = {
      list: async () => {
        throw new Error('connection refused by db.internal:5432');
      },
      get: async () => null,
    };
    const { origin, errors } = await start({ source: failing });
    const response = await fetch(`${origin}/api/v1/papers/`);
    expect(response.status).toBe(503);
    expect(JSON.stringify(await response.json())).not.toContain('db.internal');
    expect(errors).toHaveLength(1);
  });
});
