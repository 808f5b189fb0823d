import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killLeftovers, paper, servedUrl, startCli, tempDir, writeJsonLines } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});
afterEach(() => killLeftovers());

const TOKEN = 'test-token-1234';
const auth = { authorization: `Token ${TOKEN}` };

async function start(data: string, state: string) {
  const cli = startCli(['serve', '--port', '0', '--workers', '1', '--data', data, '--state-dir', state], { env: { PAPERLIST_WRITE_TOKEN: TOKEN } });
  await cli.waitFor(/serving \d+ papers/);
  return { cli, url: servedUrl(cli) };
}

/** The ids among `ids` that the server holds (one batch lookup per 100). */
async function present(url: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    const response = await fetch(`${url}?id=${encodeURIComponent(chunk.join('|'))}&fields=id&items_per_page=500`);
    expect(response.status).toBe(200);
    for (const { id } of ((await response.json()) as { results: { id: string }[] }).results) found.add(id);
  }
  return found;
}

describe('paperlist serve: HTTP writes', () => {
  it('takes PUT, DELETE and JSON Lines batches with the token, and keeps them across a restart', { timeout: 120_000 }, async () => {
    const data = await writeJsonLines(dir.file('papers.jsonl'), [paper('a'), paper('b')]);
    const state = dir.file('state-basic');
    const first = await start(data, state);
    const put = (id: string, body: unknown, headers: Record<string, string> = auth) =>
      fetch(`${first.url}${id}/`, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    expect((await put('c', paper('c', { title: 'Written over HTTP' }), {})).status).toBe(401);
    const created = await put('c', paper('c', { title: 'Written over HTTP' }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: 'c', title: 'Written over HTTP' });
    expect((await put('a', paper('a', { title: 'Alpha, corrected' }))).status).toBe(200);
    expect((await fetch(`${first.url}b/`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const bulk = await fetch(first.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', ...auth },
      body: `${JSON.stringify(paper('d'))}\n${JSON.stringify({ delete: 'c' })}\n${JSON.stringify(paper('e'))}\n`,
    });
    expect(await bulk.json()).toEqual({ created: 2, updated: 0, deleted: 1 });
    const health = (await (await fetch(new URL('/healthz', first.url))).json()) as { papers: number };
    expect(health.papers).toBe(3);
    // Writes show in the metrics: as requests by method and status, and in the journal's size and sequence.
    const metrics = await (await fetch(new URL('/metrics', first.url))).text();
    expect(metrics).toMatch(/^paperlist_http_requests_total\{route="papers-detail",method="PUT",status="201"\} 1$/m);
    expect(metrics).toMatch(/^paperlist_http_requests_total\{route="papers-list",method="POST",status="200"\} 1$/m);
    expect(metrics).toMatch(/^paperlist_journal_sequence 4$/m);
    expect(Number(/^paperlist_journal_bytes (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(1000);

    first.cli.child.kill('SIGTERM');
    await first.cli.exited;
    const second = await start(data, state);
    expect([...(await present(second.url, ['a', 'b', 'c', 'd', 'e']))].sort()).toEqual(['a', 'd', 'e']);
    const a = (await (await fetch(`${second.url}a/`)).json()) as { title: string };
    expect(a.title).toBe('Alpha, corrected');
  });

  it('loses no acknowledged batch and applies no half batch when the server is killed (SIGKILL) during writes', { timeout: 180_000 }, async () => {
    const data = await writeJsonLines(dir.file('crash.jsonl'), [paper('base')]);
    const state = dir.file('state-crash');
    const acknowledged = new Set<number>();
    const sent = new Set<number>();
    let next = 0;
    // A batch of three papers: all of them are there, or none.
    const batchIds = (n: number) => [0, 1, 2].map((i) => `w-${n}-${i}`);

    for (let round = 0; round < 3; round++) {
      const { cli, url } = await start(data, state);
      let stop = false;
      const writer = async () => {
        while (!stop) {
          const n = next++;
          sent.add(n);
          const body = batchIds(n).map((id) => JSON.stringify(paper(id, { title: `Batch ${n}` }))).join('\n');
          try {
            const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', ...auth }, body });
            if (response.status === 200) acknowledged.add(n);
            else await response.arrayBuffer();
          } catch {
            return; // the server is gone
          }
        }
      };
      const writers = Array.from({ length: 4 }, writer);
      // Killed once this round has two acknowledged batches (however slow the machine), at a varying moment after.
      const before = acknowledged.size;
      for (const deadline = Date.now() + 60_000; acknowledged.size < before + 2 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, round * 150));
      cli.child.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      await cli.exited;

      const after = await start(data, state);
      const ids = [...sent].flatMap(batchIds);
      const there = await present(after.url, ids);
      for (const n of acknowledged) expect(batchIds(n).every((id) => there.has(id)), `acknowledged batch ${n}`).toBe(true);
      for (const n of sent) {
        const held = batchIds(n).filter((id) => there.has(id)).length;
        expect([0, 3], `batch ${n} is whole or absent`).toContain(held);
      }
      after.cli.child.kill('SIGTERM');
      await after.cli.exited;
    }
    expect(acknowledged.size).toBeGreaterThan(5);
  });
});
