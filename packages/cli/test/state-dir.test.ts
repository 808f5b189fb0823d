import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getJson, killLeftovers, paper, servedUrl, startCli, tempDir, writeJsonLines } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});
afterEach(() => killLeftovers());

/** Starts `serve` on `data` with `state`, waits until it serves, and answers a search and its log. */
async function serveOnce(data: string, state: string, wait: RegExp = /serving \d+ papers/) {
  const cli = startCli(['serve', '--port', '0', '--workers', '1', '--data', data, '--state-dir', state]);
  await cli.waitFor(wait);
  await cli.waitFor(/serving \d+ papers/);
  const page = await getJson(`${servedUrl(cli)}?q=graph&ordering=-published`);
  return { cli, page };
}

async function stop(cli: ReturnType<typeof startCli>): Promise<void> {
  cli.child.kill('SIGTERM');
  expect((await cli.exited).code).toBe(0);
}

describe('paperlist serve --state-dir', () => {
  const papers = [
    paper('graph-a', { title: 'Graph networks', published: '2020-01-02' }),
    paper('graph-b', { title: 'Graph attention', published: '2021-03-04' }),
    paper('other', { title: 'Something else' }),
  ];

  // Three servers start one after another: more than the default 30 s on a loaded machine.
  it('builds and saves a snapshot on the first start, loads it on the next, and rebuilds when --data changed', { timeout: 120_000 }, async () => {
    const data = await writeJsonLines(dir.file('first.jsonl'), papers);
    const state = dir.file('state-first');

    const first = await serveOnce(data, state, /saved a snapshot of 3 papers/);
    expect(first.page.body.count).toBe(2);
    await stop(first.cli);
    const files = await readdir(state);
    expect(files.filter((f) => f.endsWith('.snapshot'))).toHaveLength(1);
    expect(files).toContain('state.json');
    expect(files).not.toContain('serve.lock');
    const manifest = JSON.parse(await readFile(join(state, 'state.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 1, papers: 3, data: { format: 'auto', skipInvalid: false } });

    const second = await serveOnce(data, state, /loaded 3 papers from the snapshot/);
    expect(second.page.body).toEqual(first.page.body);
    expect(second.cli.stderr()).not.toMatch(/saved a snapshot/);
    await stop(second.cli);

    await writeJsonLines(data, [...papers, paper('graph-c', { title: 'Graph transformers', published: '2022-05-06' })]);
    await utimes(data, new Date(), new Date(Date.now() + 5000));
    const third = await serveOnce(data, state, /saved a snapshot of 4 papers/);
    expect(third.cli.stderr()).toMatch(/first\.jsonl changed since it was saved; rebuilding/);
    expect(third.page.body.count).toBe(3);
    await stop(third.cli);
    expect((await readdir(state)).filter((f) => f.endsWith('.snapshot'))).toHaveLength(1);
  });

  it('rebuilds from --data, saying why, when the snapshot is damaged', { timeout: 90_000 }, async () => {
    const data = await writeJsonLines(dir.file('damaged.jsonl'), papers);
    const state = dir.file('state-damaged');
    await stop((await serveOnce(data, state, /saved a snapshot/)).cli);
    const manifest = JSON.parse(await readFile(join(state, 'state.json'), 'utf8'));
    const file = join(state, manifest.snapshot);
    const bytes = await readFile(file);
    bytes[bytes.length - 10]! ^= 0xff;
    await writeFile(file, bytes);

    const again = await serveOnce(data, state, /saved a snapshot of 3 papers/);
    expect(again.cli.stderr()).toMatch(/cannot use the snapshot .*catalogue-.*\.snapshot: its section .* does not match its checksum; rebuilding/);
    expect(again.page.body.count).toBe(2);
    await stop(again.cli);
  });

  it('refuses a state directory another running server holds (exit 5), and takes over one a dead server left locked', { timeout: 90_000 }, async () => {
    const data = await writeJsonLines(dir.file('locked.jsonl'), papers);
    const state = dir.file('state-locked');
    const { cli } = await serveOnce(data, state, /saved a snapshot/);
    const second = startCli(['serve', '--port', '0', '--data', data, '--state-dir', state]);
    expect((await second.exited).code).toBe(5);
    expect(second.stderr()).toMatch(new RegExp(`the state directory .*state-locked is in use by another paperlist serve \\(pid ${cli.child.pid}\\)`));
    cli.child.kill('SIGKILL');
    await cli.exited;

    const after = await serveOnce(data, state, /loaded 3 papers from the snapshot/);
    expect(after.page.body.count).toBe(2);
    await stop(after.cli);
  });

  it('cannot be combined with --database-url', async () => {
    const cli = startCli(['serve', '--state-dir', dir.file('state-db'), '--database-url', 'postgres://localhost/x']);
    expect((await cli.exited).code).toBe(2);
    expect(cli.stderr()).toMatch(/--state-dir.*cannot be used with option '--database-url/);
  });
});
