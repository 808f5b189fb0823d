import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { createMemorySource } from '@paperlist/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.js';
import { closeGracefully, listen, serverOrigin } from '../src/server/http-server.js';
import { paper } from './helpers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => closeGracefully(server, 100)));
});

async function start(): Promise<string> {
  const app = createApp({
    source: createMemorySource([paper('a'), paper('b')]),
    state: { phase: 'ready', papers: 2, inFlight: 0 },
    mount: '/api/v1',
    writeToken: 'tok',
    onError: () => {},
  });
  const server = await listen(app, '127.0.0.1', 0);
  servers.push(server);
  return serverOrigin(server, '127.0.0.1');
}

describe('the server app with writes enabled (writeToken passed through)', () => {
  it('takes PUT, DELETE and a gzip POST batch through the request listener, answers compressed', async () => {
    const origin = await start();
    const auth = { authorization: 'Token tok' };
    const put = await fetch(`${origin}/api/v1/papers/c/`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify(paper('c')),
    });
    expect([put.status, await put.json()]).toEqual([201, paper('c')]);
    expect(put.headers.get('allow')).toBe('GET, PUT, DELETE, HEAD, OPTIONS');
    const denied = await fetch(`${origin}/api/v1/papers/a/`, { method: 'DELETE' });
    expect([denied.status, denied.headers.get('www-authenticate')]).toEqual([401, 'Token']);
    expect((await fetch(`${origin}/api/v1/papers/a/`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const bulk = await fetch(`${origin}/api/v1/papers/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      body: gzipSync(`${JSON.stringify(paper('d'))}\n{"delete":"b"}\n`),
    });
    expect([bulk.status, await bulk.json()]).toEqual([200, { created: 1, updated: 0, deleted: 1 }]);
    const list = (await (await fetch(`${origin}/api/v1/papers/`)).json()) as { results: { id: string }[] };
    expect(list.results.map((p) => p.id).sort()).toEqual(['c', 'd']);
  });
});
