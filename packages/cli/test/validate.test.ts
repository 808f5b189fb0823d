import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/program.js';
import { paper, pwcRecord, runCli, tempDir, writeJsonLines, writePwcDump, writePwcParquet } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

/** Runs the CLI in this process, capturing its output. */
async function inProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = { write: (text: string) => ((stdout += text), true) } as unknown as NodeJS.WritableStream;
  const err = { write: (text: string) => ((stderr += text), true), isTTY: false } as unknown as NodeJS.WritableStream;
  const code = await main(argv, { stdout: out, stderr: err, cwd: dir.path });
  return { code, stdout, stderr };
}

describe('paperlist validate', () => {
  it('lists every invalid record with its line and reason, then a summary, and exits 1', async () => {
    const lines = [
      JSON.stringify(paper('good-1')),
      '{"id": "truncated", "title": ',
      JSON.stringify(paper('bad-date', { published: '2019-02-30' })),
      '',
      JSON.stringify({ ...paper('extra'), stars: 5 }),
      JSON.stringify(paper('good-1')),
      JSON.stringify(paper('good-2')),
    ];
    const file = dir.file('broken.jsonl.gz');
    await writeFile(file, gzipSync(lines.join('\n')));
    const { code, stdout, stderr } = await runCli(['validate', file]);
    expect(code).toBe(1);
    expect(stdout.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${file} line 2: invalid JSON: `)),
      `${file} line 3: field "published": expected a real date YYYY-MM-DD, got "2019-02-30"`,
      `${file} line 5: unknown field "stars"`,
      `${file} line 6: duplicate id "good-1" (first seen on line 1)`,
      `${file}: 6 records (paperlist records), 2 valid, 4 invalid`,
      '',
    ]);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 0 on valid files, PwC dumps and Parquet included, and checks ids across files', async () => {
    const jsonl = await writeJsonLines(dir.file('ok.jsonl'), [paper('a'), paper('b')]);
    const dump = await writePwcDump(dir.file('dump.json.gz'), [pwcRecord('c'), pwcRecord('d')]);
    const parquet = await writePwcParquet(dir.file('dump.parquet'), [pwcRecord('e'), pwcRecord('f', { date: null, authors: [] })]);
    const ok = await inProcess(['validate', 'ok.jsonl', 'dump.json.gz', 'dump.parquet']);
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.stdout).toBe(
      [
        'ok.jsonl: 2 records (paperlist records), 2 valid, 0 invalid',
        'dump.json.gz: 2 records (Papers with Code records), 2 valid, 0 invalid',
        'dump.parquet: 2 records (Papers with Code records, Parquet), 2 valid, 0 invalid',
        '3 files: 6 records, 6 valid, 0 invalid',
        '',
      ].join('\n'),
    );
    void [jsonl, dump, parquet];

    await writePwcParquet(dir.file('again.parquet'), [pwcRecord('g'), pwcRecord('a', { date: 'yesterday' }), pwcRecord('b')]);
    const twice = await inProcess(['validate', 'ok.jsonl', 'again.parquet']);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toContain('again.parquet row 2: field "date": expected a real date YYYY-MM-DD, got "yesterday"\n');
    expect(twice.stdout).toContain('again.parquet row 3: duplicate id "b" (first seen in ok.jsonl line 2)\n');
  });

  it('reports a file it cannot read past an error, and goes on with the next', async () => {
    await writeFile(dir.file('cut.json'), `[${JSON.stringify(paper('x'))}, ${JSON.stringify(paper('y'))}`);
    await writeJsonLines(dir.file('fine.jsonl'), [paper('z')]);
    const { code, stdout } = await inProcess(['validate', '--format', 'paperlist', 'cut.json', 'fine.jsonl']);
    expect(code).toBe(1);
    expect(stdout).toContain('cut.json line 1: unexpected end of input: the JSON array is not closed with "]" (the rest of the file cannot be read)\n');
    expect(stdout).toContain('cut.json: 3 records (paperlist records), 2 valid, 1 invalid, unreadable past the error\n');
    expect(stdout).toContain('fine.jsonl: 1 record (paperlist records), 1 valid, 0 invalid');
  });

  it('--summary-only prints only the summary', async () => {
    await writeFile(dir.file('two-bad.jsonl'), '{}\n[]\n');
    const { code, stdout } = await inProcess(['validate', '--summary-only', 'two-bad.jsonl']);
    expect(code).toBe(1);
    expect(stdout).toBe('two-bad.jsonl: 2 records (paperlist records), 0 valid, 2 invalid\n');
  });
});

describe('usage and errors', () => {
  it('exits 2 on usage errors, with one line and a hint', async () => {
    const unknown = await runCli(['serve', '--prot', '80']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("paperlist: error: unknown option '--prot'\n(Did you mean --port?)\n(add --help for usage)\n");
    for (const argv of [
      ['serve', '--port', 'eighty'],
      ['serve', '--workers', '0'],
      ['serve', '--format', 'csv'],
      ['serve', '--page-size', '100', '--max-page-size', '10'],
      ['serve', '--base-url', 'not a url'],
      ['serve', '--data', 'x.jsonl', '--database-url', 'postgres://localhost/x'],
      ['validate'],
      ['import', 'x.jsonl'],
      ['frobnicate'],
    ]) {
      const result = await inProcess(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(/^paperlist: error: /);
    }
  });

  it('shows --help for every command, with the exit codes, and exits 0', async () => {
    for (const argv of [['--help'], ['serve', '--help'], ['import', '--help'], ['validate', '--help'], ['help', 'serve']]) {
      const { code, stdout } = await inProcess(argv);
      expect(code, argv.join(' ')).toBe(0);
      expect(stdout, argv.join(' ')).toMatch(/^Usage: paperlist/);
      expect(stdout, argv.join(' ')).toContain('Exit codes:');
    }
    expect((await inProcess(['serve', '--help'])).stdout).not.toContain('--debug-delay');
  });

  it('exits 3 for a missing file, and shows the stack only with --verbose', async () => {
    const missing = await inProcess(['validate', 'nowhere.jsonl']);
    expect(missing).toEqual({ code: 3, stdout: '', stderr: 'paperlist: error: cannot read nowhere.jsonl: no such file\n' });
    const verbose = await inProcess(['validate', '--verbose', 'nowhere.jsonl']);
    expect(verbose.stderr).toMatch(/^paperlist: error: cannot read nowhere.jsonl: no such file\nCliError: .*\n\s+at /);
  });
});
