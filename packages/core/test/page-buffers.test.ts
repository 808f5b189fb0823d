import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherPageJson, PAGE_ROOM_AFTER, PAGE_ROOM_BEFORE } from '../src/engine/page-json.js';
import type { Paper, PaperSource } from '../src/index.js';
import { createMemorySource, createRequestListener, type IndexedMemorySource } from '../src/node/index.js';
import { loadSamplePapers } from '../src/sample.js';
import { MIN_PAGE_BUFFER_BYTES, PageBuffers, pageBufferSize } from '../src/threads/page-buffers.js';

const KB = 1024;

describe('pageBufferSize', () => {
  it.each([
    [0, 64 * KB],
    [1, 64 * KB],
    [64 * KB, 64 * KB],
    [64 * KB + 1, 128 * KB],
    [200 * KB, 256 * KB],
    [1 << 20, 1 << 20],
    [(1 << 20) + 1, 2 << 20],
  ])('%i bytes → %i', (bytes, size) => {
    expect(pageBufferSize(bytes)).toBe(size);
  });
});

describe('PageBuffers', () => {
  it('answers a buffer handed back, for a page of its size only', () => {
    const buffers = new PageBuffers();
    const first = buffers.take(100 * KB);
    expect(first.byteLength).toBe(128 * KB);
    buffers.give(first.buffer as ArrayBuffer);
    expect(buffers.bytes).toBe(128 * KB);
    expect(buffers.take(10 * KB).buffer).not.toBe(first.buffer); // another size
    expect(buffers.take(120 * KB).buffer).toBe(first.buffer);
    expect(buffers.reused).toBe(1);
    expect(buffers.bytes).toBe(0);
    expect(buffers.take(120 * KB).buffer).not.toBe(first.buffer); // taken already
  });

  it.each([
    ['a size of its own', new ArrayBuffer(100 * KB), 0],
    ['within the limits', new ArrayBuffer(MIN_PAGE_BUFFER_BYTES), MIN_PAGE_BUFFER_BYTES],
  ])('keeps only buffers of its sizes: %s', (_name, buffer, kept) => {
    const buffers = new PageBuffers();
    buffers.give(buffer);
    expect(buffers.bytes).toBe(kept);
  });

  it('keeps no more than its limits, per size and in all', () => {
    const buffers = new PageBuffers({ perSize: 2, totalBytes: 4 * 64 * KB });
    for (let i = 0; i < 5; i++) buffers.give(new ArrayBuffer(64 * KB));
    expect(buffers.bytes).toBe(2 * 64 * KB);
    buffers.give(new ArrayBuffer(128 * KB));
    expect(buffers.bytes).toBe(4 * 64 * KB);
    buffers.give(new ArrayBuffer(128 * KB)); // over the total
    expect(buffers.bytes).toBe(4 * 64 * KB);
  });

  it('a page gathered in a used buffer is the page gathered in a new one', () => {
    const buffers = new PageBuffers();
    const papers = ['{"id":"a","x":"one"}', '{"id":"bb","x":"two, longer"}', '{"id":"c"}'].map((json) => new TextEncoder().encode(json));
    const dirty = buffers.take(1);
    dirty.fill(0x7a);
    buffers.give(dirty.buffer as ArrayBuffer);
    for (const k of [3, 2, 1, 0]) {
      const used = gatherPageJson(k, (i) => papers[i]!, (bytes) => buffers.take(bytes));
      const fresh = gatherPageJson(k, (i) => papers[i]!);
      expect(Buffer.from(used.json).toString()).toBe(Buffer.from(fresh.json).toString());
      expect([...used.starts]).toEqual([...fresh.starts]);
      // The room around the view is there in both.
      expect(used.json.byteOffset).toBe(PAGE_ROOM_BEFORE);
      expect(used.json.buffer.byteLength - used.json.byteOffset - used.json.byteLength).toBeGreaterThanOrEqual(PAGE_ROOM_AFTER);
      buffers.give(used.json.buffer as ArrayBuffer);
    }
    expect(buffers.reused).toBe(4);
  });
});

/** GET over a new connection, for one host name whatever the port (the links are the same): status and body. */
function get(origin: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${origin}${path}`, { agent: false, headers: { host: 'paperlist.test' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    })
      .on('error', reject)
      .end();
  });
}

describe('bodies handed back to the query threads (reuseBodies)', () => {
  let papers: Paper[];
  const sources: IndexedMemorySource[] = [];
  const servers: Server[] = [];
  beforeAll(async () => {
    papers = await loadSamplePapers();
  });
  afterAll(async () => {
    for (const server of servers) server.closeAllConnections(), server.close();
    await Promise.all(sources.map((s) => s.close()));
  });

  /** A server over `source`; `released` counts the pages handed back. */
  async function serve(source: IndexedMemorySource, reuseBodies: boolean) {
    const released = { count: 0 };
    const counting = new Proxy(source, {
      get(target, key) {
        if (key === 'list') {
          return async (...args: Parameters<PaperSource['list']>) => {
            const page = await target.list(...args);
            const release = page.release;
            if (release !== undefined) page.release = () => (released.count++, release());
            return page;
          };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const server = createServer(createRequestListener({ source: counting, mount: '/api/v1', allowedHosts: ['*'], reuseBodies }));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, released };
  }

  // Large pages then smaller ones of the same buffer sizes: later pages land in buffers that
  // still hold the longer bytes of earlier ones.
  const paths = [300, 200, 150, 120, 60, 500, 90, 45, 3, 250, 130, 1].flatMap((n, i) => [
    `/api/v1/papers/?items_per_page=${n}&page=${1 + (i % 3)}`,
    `/api/v1/papers/?q=learning&items_per_page=${n}&ordering=${i % 2 === 0 ? '-published' : 'title'}`,
  ]);

  it('answers byte for byte what the calling thread answers, and hands every page back once written', async () => {
    const threaded = createMemorySource(papers, { threads: 1 });
    const here = createMemorySource(papers, {});
    sources.push(threaded, here);
    const reused = await serve(threaded, true);
    const plain = await serve(here, false);
    for (const path of paths) {
      const got = await get(reused.origin, path);
      const want = await get(plain.origin, path);
      expect(got.status).toBe(200);
      // Where they differ, not two pages of JSON.
      let at = 0;
      while (at < got.body.length && got.body.charCodeAt(at) === want.body.charCodeAt(at)) at++;
      if (at === got.body.length && at === want.body.length) at = -1;
      expect({ path, length: got.body.length, differsAt: at }).toEqual({ path, length: want.body.length, differsAt: -1 });
    }
    expect(reused.released.count).toBe(paths.length);
  });

  it('hands nothing back without reuseBodies', async () => {
    const threaded = createMemorySource(papers, { threads: 1 });
    sources.push(threaded);
    const { origin, released } = await serve(threaded, false);
    for (const path of paths.slice(0, 4)) expect((await get(origin, path)).status).toBe(200);
    expect(released.count).toBe(0);
  });
});
