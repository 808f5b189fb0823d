import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPapersHandler } from '@paperlist/core';
import { createMemorySource } from '@paperlist/core/node';
import { paper, runCli, tempDir, writeJsonLines } from './helpers.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

const papers = Array.from({ length: 2300 }, (_, i) =>
  paper(`p${String(i).padStart(4, '0')}`, { title: `Paper ${i % 97}`, published: i % 11 === 0 ? null : `20${10 + (i % 12)}-03-0${1 + (i % 7)}` }),
);

/** What the API's export streams for `query` over the same papers. */
async function apiExport(query: string): Promise<string> {
  const handle = createPapersHandler({ source: createMemorySource(papers), allowedHosts: ['h'] });
  const answer = (await handle({ method: 'GET', url: `/papers/?${query}&format=jsonl`, headers: { host: 'h' } }))!;
  let text = '';
  for await (const chunk of answer.stream!) text += new TextDecoder().decode(chunk);
  return text;
}

describe('paperlist export', () => {
  it('writes the bytes of the API export, to a file or stdout, with a summary on stderr', { timeout: 60_000 }, async () => {
    const data = await writeJsonLines(dir.file('papers.jsonl'), papers);
    const query = 'year=2015-&ordering=-published&fields=id,published';
    const output = dir.file('out.jsonl');
    const toFile = await runCli(['export', '--data', data, '--query', query, '-o', output]);
    expect(toFile.code, toFile.stderr).toBe(0);
    const expected = await apiExport(query);
    expect(expected.split('\n').length).toBeGreaterThan(1000);
    expect(await readFile(output, 'utf8')).toBe(expected);
    expect(toFile.stderr).toMatch(/exported [\d,]+ papers to .*out\.jsonl/);

    const toStdout = await runCli(['export', '--data', data, '--query', 'ordering=id', '--quiet']);
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout).toBe(await apiExport('ordering=id'));
    expect(toStdout.stdout.split('\n')).toHaveLength(papers.length + 1);
  });

  it('refuses a query the API refuses, with its error', { timeout: 60_000 }, async () => {
    const data = await writeJsonLines(dir.file('refused.jsonl'), papers.slice(0, 10));
    const refused = await runCli(['export', '--data', data, '--query', 'q=paper']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the query "q=paper" was refused \(400\): \{"ordering":\["An export of a search needs an explicit ordering/);
  });
});
