import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI_DIR,
  freePort,
  getJson,
  killLeftovers,
  paper,
  pwcRecord,
  servedUrl,
  startCli,
  tempDir,
  writeJsonLines,
  writePwcDump,
  writePwcParquet,
} from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});
afterEach(() => killLeftovers());

describe('paperlist serve', () => {
  it('serves the embedded sample at /api/v1/papers/ and stops on SIGTERM with exit code 0', async () => {
    const cli = startCli(['serve', '--port', '0']);
    await cli.waitFor(/serving 4,000 papers at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/papers\//);
    const url = servedUrl(cli);
    const page = await getJson(`${url}?q=attention&items_per_page=2`);
    expect(page.status).toBe(200);
    expect(Object.keys(page.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(page.body.results).toHaveLength(2);
    const one = await getJson(`${url}attention-is-all-you-need/`);
    expect(one.body.arxiv_id).toBe('1706.03762');

    const origin = new URL(url).origin;
    expect(await getJson(`${origin}/healthz`)).toEqual({ status: 200, body: { status: 'ready', papers: 4000 } });
    expect(await getJson(`${origin}/elsewhere`)).toEqual({ status: 404, body: { detail: 'Not found.' } });

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.stderr()).toMatch(/SIGTERM: shutting down/);
    expect(cli.stderr()).toMatch(/stopped/);
  });

  it('serves a Papers with Code dump (gzipped JSON array) and merges several --data files', async () => {
    const dump = await writePwcDump(dir.file('papers-with-abstracts.json.gz'), [
      pwcRecord('attention-is-all-you-need', { title: 'Attention Is All You Need' }),
      pwcRecord('bert-pre-training', { title: 'BERT: Pre-training of Deep Bidirectional Transformers', date: '2018-10-11' }),
    ]);
    const own = await writeJsonLines(dir.file('own.jsonl'), [paper('my-paper', { title: 'My own paper' })]);
    const cli = startCli(['serve', '--port', '0', '--data', dump, '--data', own, '--mount', '/']);
    await cli.waitFor(/serving 3 papers at http:\/\/127\.0\.0\.1:\d+\/papers\//);
    const url = servedUrl(cli);
    const bert = await getJson(`${url}bert-pre-training/`);
    expect(bert.body).toMatchObject({ id: 'bert-pre-training', published: '2018-10-11', authors: ['Ashish Vaswani', 'Noam Shazeer'] });
    expect(Object.keys(bert.body)).toHaveLength(13);
    expect((await getJson(`${url}?q=own`)).body.results.map((p: { id: string }) => p.id)).toEqual(['my-paper']);
    // The dump's tasks and methods, beside the papers.
    expect((await getJson(`${url}bert-pre-training/tasks/`)).body).toEqual({ count: 1, next: null, previous: null, results: [{ id: 'machine-translation', name: 'Machine Translation', description: '' }] });
    expect((await getJson(`${url}my-paper/methods/`)).body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await getJson(`${url}?method=adam&ordering=id`)).body.results.map((p: { id: string }) => p.id)).toEqual(['attention-is-all-you-need', 'bert-pre-training']);
    cli.child.kill('SIGINT');
    expect((await cli.exited).code).toBe(0);
  });

  it('serves the same records from a Parquet file', async () => {
    const records = Array.from({ length: 2500 }, (_, i) => pwcRecord(`parquet-paper-${i}`, { title: `Parquet paper ${i}`, date: i % 2 ? null : '2021-01-01' }));
    const file = await writePwcParquet(dir.file('papers.parquet'), records, 1000);
    const cli = startCli(['serve', '--port', '0', '--data', file]);
    await cli.waitFor(/serving 2,500 papers/);
    const url = servedUrl(cli);
    const page = await getJson(`${url}?q=%22parquet+paper+1233%22`);
    expect(page.body.count).toBe(1);
    expect(page.body.results[0]).toMatchObject({ id: 'parquet-paper-1233', published: null, authors: ['Ashish Vaswani', 'Noam Shazeer'] });
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('refuses ids repeated across files, naming both places, with exit code 1', async () => {
    const a = await writeJsonLines(dir.file('a.jsonl'), [paper('x'), paper('y')]);
    const b = await writeJsonLines(dir.file('b.jsonl'), [paper('z'), paper('y')]);
    const cli = startCli(['serve', '--port', '0', '--data', a, b]);
    expect((await cli.exited).code).toBe(1);
    expect(cli.stderr()).toContain(`paperlist: error: ${b} line 2: duplicate id "y" (first seen in ${a} line 2)`);
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });

  it('writes plain progress lines with papers/s and an ETA when stderr is not a terminal', async () => {
    const records = Array.from({ length: 40_000 }, (_, i) => paper(`p-${i}`, { abstract: `Abstract number ${i} ${'lorem ipsum '.repeat(i % 7)}` }));
    const file = await writeJsonLines(dir.file('progress.jsonl'), records);
    const cli = startCli(['serve', '--port', '0', '--data', file]);
    await cli.waitFor(/serving 40,000 papers/);
    const stderr = cli.stderr();
    expect(stderr).toContain(`paperlist: loading ${file}:`);
    expect(stderr).toMatch(/loading .*progress\.jsonl: [\d,]+ papers, \d+% read, [\d,]+ papers\/s, ETA /);
    expect(stderr).toMatch(/loaded 40,000 papers from .*progress\.jsonl in [\d.]+m?s \([\d,]+ papers\/s\)/);
    expect(stderr).not.toMatch(/\x1b\[/); // no terminal escapes
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('stops loading on SIGTERM and exits 0', async () => {
    const records = Array.from({ length: 60_000 }, (_, i) => paper(`stop-${i}`));
    const file = await writeJsonLines(dir.file('interrupted.jsonl'), records);
    const cli = startCli(['serve', '--port', '0', '--data', file]);
    await cli.waitFor(/loading .*interrupted\.jsonl: [\d,]+ papers/);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
    expect(cli.stderr()).toContain('SIGTERM: loading interrupted, stopping');
    expect(cli.stdout()).not.toContain('serving');
  });

  it('under `pnpm start`, resolves paths against the directory pnpm was started in and drops a passed-on `--`', async () => {
    await writeJsonLines(dir.file('relative.jsonl'), [paper('r1'), paper('r2')]);
    const cli = startCli(['serve', '--', '--data', 'relative.jsonl', '--port', '0'], {
      env: { npm_lifecycle_event: 'start', npm_package_name: '@paperlist/cli', INIT_CWD: dir.path },
    });
    await cli.waitFor(/serving 2 papers/);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it("in anyone else's npm script, resolves paths against its working directory, not INIT_CWD", async () => {
    await writeJsonLines(dir.file('own-script.jsonl'), [paper('o1'), paper('o2'), paper('o3')]);
    // The CLI runs in its package's folder (as npm runs a script); INIT_CWD names a folder where the path does not exist.
    const cli = startCli(['serve', '--data', relative(CLI_DIR, dir.file('own-script.jsonl')), '--port', '0'], {
      env: { npm_lifecycle_event: 'serve', npm_package_name: 'my-app', INIT_CWD: join(dir.path, 'a-subfolder') },
    });
    await cli.waitFor(/serving 3 papers/);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('on %s finishes the requests in flight, refuses new ones, and exits 0', async (signal) => {
    const cli = startCli(['serve', '--port', '0', '--debug-delay', '1500']);
    await cli.waitFor(/serving 4,000 papers/);
    const url = servedUrl(cli);
    const started = Date.now();
    const inFlight = [1, 2, 3].map((page) => getJson(`${url}?page=${page}`));
    await new Promise((resolve) => setTimeout(resolve, 400));
    cli.child.kill(signal);
    // A Ctrl-C often arrives twice at once (from the terminal and from a wrapper such as pnpm): still one request to stop.
    if (signal === 'SIGINT') cli.child.kill(signal);
    await cli.waitFor(new RegExp(`${signal}: shutting down, 3 requests in flight`));
    await expect(fetch(url)).rejects.toThrow();
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.body.results.length)).toEqual([50, 50, 50]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(await cli.exited).toEqual({ code: 0, signal: null });
  });

  it('exits 130 at once on a second Ctrl-C during a shutdown', async () => {
    const cli = startCli(['serve', '--port', '0', '--debug-delay', '20000']);
    await cli.waitFor(/serving 4,000 papers/);
    const request = fetch(servedUrl(cli)).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    cli.child.kill('SIGINT');
    await cli.waitFor(/SIGINT: shutting down, 1 request in flight/);
    await new Promise((resolve) => setTimeout(resolve, 400));
    cli.child.kill('SIGINT');
    expect((await cli.exited).code).toBe(130);
    expect(await request).toBe('cut');
    expect(cli.stderr()).toContain('paperlist: warning: second SIGINT: exiting now');
  });

  it('cuts requests still running after --shutdown-timeout, and still exits 0', async () => {
    const cli = startCli(['serve', '--port', '0', '--debug-delay', '20000', '--shutdown-timeout', '0.5']);
    await cli.waitFor(/serving 4,000 papers/);
    const request = fetch(servedUrl(cli)).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    cli.child.kill('SIGTERM');
    expect(await request).toBe('cut');
    expect((await cli.exited).code).toBe(0);
    expect(cli.stderr()).toMatch(/cut 1 connection still open after 0\.5s/);
  });

  it('reloads the catalogue on SIGHUP, and keeps it when the reload fails', async () => {
    const file = dir.file('reload.jsonl');
    await writeJsonLines(file, [paper('a'), paper('b'), paper('c')]);
    const cli = startCli(['serve', '--port', '0', '--data', file]);
    await cli.waitFor(/serving 3 papers/);
    const url = servedUrl(cli);
    expect((await getJson(url)).body.count).toBe(3);

    // The difference by id is applied: two new papers, one changed, one gone.
    await writeJsonLines(file, [paper('a'), paper('b', { title: 'Beta, corrected' }), paper('d'), paper('e'), paper('f')]);
    cli.child.kill('SIGHUP');
    await cli.waitFor(/applied the difference to the files: 3 new, 1 changed, 1 removed/);
    await cli.waitFor(/reloaded: serving 5 papers \(was 3\)/);
    expect((await getJson(url)).body.count).toBe(5);
    expect((await getJson(`${url}e/`)).status).toBe(200);
    expect((await getJson(`${url}c/`)).status).toBe(404);
    expect((await getJson(`${url}b/`)).body.title).toBe('Beta, corrected');

    await writeFile(file, `${JSON.stringify(paper('f'))}\n{"id": "broken"\n`);
    cli.child.kill('SIGHUP');
    await cli.waitFor(/reload failed, still serving the previous 5 papers: .*reload\.jsonl line 2: invalid JSON/);
    expect((await getJson(url)).body.count).toBe(5);
    expect(cli.child.exitCode).toBeNull();

    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('answers /healthz while its --workers query threads are busy, and refuses a query past --budget with 503', async () => {
    const port = await freePort();
    const cli = startCli(['serve', '--port', String(port), '--workers', '2'], { env: { PAPERLIST_DEBUG_QUERY_SPIN_MS: '1500' } });
    await cli.waitFor(/serving 4,000 papers at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/papers\/ \(2 query threads\)/);
    // One process: the threads are not child processes.
    expect(spawnSync('pgrep', ['-P', String(cli.child.pid)], { encoding: 'utf8' }).stdout.trim()).toBe('');
    const url = servedUrl(cli);
    const order: string[] = [];
    const slow = getJson(`${url}?q=attention`).then((answer) => {
      order.push('search');
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const health = await getJson(url.replace(/\/api\/v1\/papers\/$/, '/healthz'));
    order.push('healthz');
    expect(health).toEqual({ status: 200, body: { status: 'ready', papers: 4000 } });
    expect((await slow).status).toBe(200);
    expect(order).toEqual(['healthz', 'search']);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });

    const tight = startCli(['serve', '--port', String(await freePort()), '--budget', '0.001']);
    await tight.waitFor(/serving 4,000 papers/);
    const refused = await fetch(`${servedUrl(tight)}?q=learning`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect((await refused.json()).detail).toMatch(/needs more work than one request may take/);
    expect((await fetch(servedUrl(tight).replace(/papers\/$/, 'papers/attention-is-all-you-need/'))).status).toBe(200);
    tight.child.kill('SIGTERM');
    expect((await tight.exited).code).toBe(0);
  });

  it('exits 5 with one line when the port is in use', async () => {
    const first = startCli(['serve', '--port', '0']);
    await first.waitFor(/serving/);
    const port = new URL(servedUrl(first)).port;
    const second = startCli(['serve', '--port', port]);
    expect((await second.exited).code).toBe(5);
    expect(second.stderr().trim().split('\n').at(-1)).toBe(
      `paperlist: error: cannot listen on 127.0.0.1:${port}: the address is already in use (try another --port)`,
    );
    first.child.kill('SIGTERM');
    await first.exited;
  });
});
