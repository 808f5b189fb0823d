import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PaperChange } from '@paperlist/core';
import { WriteJournal } from '../src/writes/write-journal.js';
import { getJson, killLeftovers, paper, servedUrl, startCli, tempDir, writeJsonLines } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});
afterEach(() => killLeftovers());

/** Appends batches to the journal of `state`, as a server taking writes would have. */
async function journal(state: string, batches: PaperChange[][]): Promise<void> {
  await mkdir(state, { recursive: true });
  const { journal: opened } = await WriteJournal.open(join(state, 'journal.log'));
  for (const batch of batches) await opened.append(batch);
  await opened.close();
}

async function serveOnce(data: string, state: string, wait: RegExp) {
  const cli = startCli(['serve', '--port', '0', '--workers', '1', '--data', data, '--state-dir', state]);
  await cli.waitFor(wait);
  await cli.waitFor(/serving \d+ papers/);
  const url = servedUrl(cli);
  const titles = async (query: string) => ((await getJson(`${url}?${query}`)).body.results as { title: string }[]).map((p) => p.title);
  return { cli, titles };
}

async function stop(cli: ReturnType<typeof startCli>): Promise<void> {
  cli.child.kill('SIGTERM');
  expect((await cli.exited).code).toBe(0);
}

describe('paperlist serve --state-dir: the write journal', () => {
  const papers = [paper('a', { title: 'Alpha graphs' }), paper('b', { title: 'Beta graphs' }), paper('c', { title: 'Gamma graphs' })];

  it('applies the journal over --data when building, over the snapshot when loading it, and after a --data change', { timeout: 150_000 }, async () => {
    const data = await writeJsonLines(dir.file('papers.jsonl'), papers);
    const state = dir.file('state');
    await journal(dir.file('state'), [
      [{ op: 'upsert', paper: paper('b', { title: 'Beta graphs, corrected' }) }, { op: 'delete', id: 'c' }],
      [{ op: 'upsert', paper: paper('d', { title: 'Delta graphs' }) }],
    ]);

    // First start: built from --data with both batches applied, then saved with them.
    const first = await serveOnce(data, state, /saved a snapshot of 3 papers/);
    expect(await first.titles('q=graphs&ordering=title')).toEqual(['Alpha graphs', 'Beta graphs, corrected', 'Delta graphs']);
    await stop(first.cli);
    expect(JSON.parse(await readFile(join(state, 'state.json'), 'utf8'))).toMatchObject({ journalApplied: 2, papers: 3 });

    // Writes taken after that snapshot: loaded from the snapshot, then the newer batches applied.
    await journal(state, [[{ op: 'delete', id: 'a' }], [{ op: 'upsert', paper: paper('e', { title: 'Epsilon graphs' }) }]]);
    const second = await serveOnce(data, state, /applied 2 write batches from .*journal\.log/);
    expect(second.cli.stderr()).toMatch(/loaded 3 papers from the snapshot/);
    expect(await second.titles('q=graphs&ordering=title')).toEqual(['Beta graphs, corrected', 'Delta graphs', 'Epsilon graphs']);
    await stop(second.cli);

    // --data changed: rebuilt from the new files, with every write of the journal applied again.
    await writeJsonLines(data, [...papers, paper('f', { title: 'Phi graphs' })]);
    const third = await serveOnce(data, state, /saved a snapshot of 4 papers/);
    expect(await third.titles('q=graphs&ordering=title')).toEqual(['Beta graphs, corrected', 'Delta graphs', 'Epsilon graphs', 'Phi graphs']);
    await stop(third.cli);
  });

  it('applies the difference of --data by id on SIGHUP, the journal\'s writes winning, and saves it', { timeout: 150_000 }, async () => {
    const data = await writeJsonLines(dir.file('hangup.jsonl'), [...papers, paper('h', { title: 'Eta graphs' })]);
    const state = dir.file('hangup-state');
    await journal(state, [[{ op: 'upsert', paper: paper('b', { title: 'Beta graphs, corrected' }) }, { op: 'delete', id: 'c' }]]);
    const server = await serveOnce(data, state, /saved a snapshot of 3 papers/);
    expect(await server.titles('q=graphs&ordering=title')).toEqual(['Alpha graphs', 'Beta graphs, corrected', 'Eta graphs']);

    // a changed, b changed too (but the journal wrote b), c back in the files (but the journal deleted it), h gone, g new.
    await writeJsonLines(data, [
      paper('a', { title: 'Alpha graphs, revised' }),
      paper('b', { title: 'Beta graphs v2' }),
      paper('c', { title: 'Gamma graphs' }),
      paper('g', { title: 'Gamma two graphs' }),
    ]);
    server.cli.child.kill('SIGHUP');
    await server.cli.waitFor(/applied the difference to the files: 1 new, 1 changed, 1 removed/);
    await server.cli.waitFor(/saved a snapshot of 3 papers[^]*saved a snapshot of 3 papers/);
    const after = ['Alpha graphs, revised', 'Beta graphs, corrected', 'Gamma two graphs'];
    expect(await server.titles('q=graphs&ordering=title')).toEqual(after);
    await stop(server.cli);

    // The next start loads that snapshot: the files have not changed since.
    const again = await serveOnce(data, state, /loaded 3 papers from the snapshot/);
    expect(await again.titles('q=graphs&ordering=title')).toEqual(after);
    await stop(again.cli);
  });

  it('refuses writes that a restart would lose, unless told to accept that', { timeout: 60_000 }, async () => {
    const data = await writeJsonLines(dir.file('refuse.jsonl'), papers);
    const refused = startCli(['serve', '--port', '0', '--data', data], { env: { PAPERLIST_WRITE_TOKEN: 'secret' } });
    expect((await refused.exited).code).toBe(2);
    expect(refused.stderr()).toMatch(/writes are on \(a write token is set\) but there is no --state-dir: every write would be lost at the next restart/);

    const tokenFile = dir.file('empty-token');
    await writeJsonLines(tokenFile, []);
    const empty = startCli(['serve', '--port', '0', '--data', data, '--ephemeral-writes', '--write-token-file', tokenFile]);
    expect((await empty.exited).code).toBe(2);
    expect(empty.stderr()).toMatch(/the write token in .*empty-token is empty/);

    const ephemeral = startCli(['serve', '--port', '0', '--workers', '1', '--data', data, '--ephemeral-writes'], { env: { PAPERLIST_WRITE_TOKEN: 'secret' } });
    await ephemeral.waitFor(/serving 3 papers/);
    await stop(ephemeral);
  });
});
