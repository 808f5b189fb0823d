import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaperLoadError, type LoadProblem } from '../load/index.js';
import { PROGRESS_INTERVAL } from '../load/read-papers.js';
import type { Paper } from '../paper.js';
import { IdRegistry, idFromPaperUrl, pwcRecordToPaper, readCatalog, readPwcPapers, type ReadCatalogOptions } from './index.js';

/** A record as the Papers with Code dump writes it, extras included. */
function pwc(slug: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    paper_url: `https://paperswithcode.com/paper/${slug}`,
    arxiv_id: '1706.03762',
    nips_id: null,
    openreview_id: null,
    title: `Title of ${slug}`,
    abstract: 'An abstract.',
    url_abs: 'https://arxiv.org/abs/1706.03762v5',
    url_pdf: 'https://arxiv.org/pdf/1706.03762v5.pdf',
    proceeding: 'neurips-2017-12',
    authors: ['Ashish Vaswani', 'Noam Shazeer'],
    tasks: ['Machine Translation'],
    date: '2017-06-12',
    conference_url_abs: 'http://papers.nips.cc/paper/7181',
    conference_url_pdf: 'http://papers.nips.cc/paper/7181.pdf',
    conference: 'attention-is-all-you-need-1',
    methods: [{ name: 'Adam' }],
    ...fields,
  };
}

function paper(id: string, fields: Partial<Paper> = {}): Paper {
  return {
    id,
    arxiv_id: null,
    nips_id: null,
    url_abs: `https://example.org/${id}`,
    url_pdf: `https://example.org/${id}.pdf`,
    title: `Title of ${id}`,
    abstract: '',
    authors: [],
    published: null,
    conference: null,
    conference_url_abs: null,
    conference_url_pdf: null,
    proceeding: null,
    ...fields,
  };
}

const jsonl = (records: readonly unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paperlist-formats-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tempFile(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function collect(input: string, options?: ReadCatalogOptions): Promise<Paper[]> {
  const out: Paper[] = [];
  for await (const p of readCatalog(input, options)) out.push(p);
  return out;
}

async function loadError(input: string, options?: ReadCatalogOptions): Promise<PaperLoadError> {
  try {
    await collect(input, options);
  } catch (error) {
    expect(error).toBeInstanceOf(PaperLoadError);
    return error as PaperLoadError;
  }
  throw new Error('expected a PaperLoadError');
}

describe('pwcRecordToPaper', () => {
  it('maps a dump record to a paper, its tasks and methods beside it, ignoring other extra fields', () => {
    expect(pwcRecordToPaper(pwc('attention-is-all-you-need'))).toEqual({
      ok: true,
      paper: {
        id: 'attention-is-all-you-need',
        arxiv_id: '1706.03762',
        nips_id: null,
        url_abs: 'https://arxiv.org/abs/1706.03762v5',
        url_pdf: 'https://arxiv.org/pdf/1706.03762v5.pdf',
        title: 'Title of attention-is-all-you-need',
        abstract: 'An abstract.',
        authors: ['Ashish Vaswani', 'Noam Shazeer'],
        published: '2017-06-12',
        conference: 'attention-is-all-you-need-1',
        conference_url_abs: 'http://papers.nips.cc/paper/7181',
        conference_url_pdf: 'http://papers.nips.cc/paper/7181.pdf',
        proceeding: 'neurips-2017-12',
      },
      annotations: {
        tasks: ['Machine Translation'],
        methods: [{ name: 'Adam', full_name: null, description: null, introduced_year: null, source_url: null, source_title: null, code_snippet_url: null }],
      },
    });
  });

  it('fills what the dump leaves null or out', () => {
    const result = pwcRecordToPaper({ paper_url: '/paper/x/', title: 'X', abstract: null, url_pdf: null, authors: null, date: '' });
    expect(result).toEqual({ ok: true, paper: { ...paper('x', { title: 'X' }), url_abs: '', url_pdf: '' } });
  });

  it.each<[string, unknown, string]>([
    ['a non-object', [1], 'expected a JSON object, got an array'],
    ['no paper_url', { title: 'x' }, 'missing field "paper_url"'],
    ['a numeric paper_url', { paper_url: 3, title: 'x' }, 'field "paper_url": expected a string, got the number 3'],
    ['a paper_url without a path', { paper_url: 'https://paperswithcode.com/', title: 'x' }, `field "paper_url": expected a URL ending in the paper's id, got "https://paperswithcode.com/"`],
    ['no title', { paper_url: '/paper/x' }, 'missing field "title"'],
    ['a bad date', { paper_url: '/paper/x', title: 'x', date: '2019-02-30' }, 'field "date": expected a real date YYYY-MM-DD, got "2019-02-30"'],
    ['bad authors', { paper_url: '/paper/x', title: 'x', authors: 'A. B.' }, 'field "authors": expected an array of strings, got "A. B."'],
  ])('rejects %s', (_name, value, reason) => {
    expect(pwcRecordToPaper(value)).toEqual({ ok: false, reason });
  });

  it.each([
    ['https://paperswithcode.com/paper/attention-is-all-you-need', 'attention-is-all-you-need'],
    ['https://paperswithcode.com/paper/attention-is-all-you-need/', 'attention-is-all-you-need'],
    ['https://paperswithcode.com/paper/a-b?x=1#y', 'a-b'],
    ['https://paperswithcode.com/paper/caf%C3%A9', 'café'],
    ['paper/x', 'x'],
    ['https://paperswithcode.com', undefined],
  ])('takes the id of %s', (url, id) => {
    expect(idFromPaperUrl(url)).toBe(id);
  });
});

describe('readCatalog', () => {
  const dump = [pwc('a'), pwc('b', { date: null }), pwc('c')];

  it.each<[string, () => string | Uint8Array]>([
    ['a PwC JSON array on one line', () => JSON.stringify(dump)],
    ['a gzipped, pretty-printed PwC JSON array', () => gzipSync(JSON.stringify(dump, null, 2))],
    ['PwC JSON Lines', () => jsonl(dump)],
  ])('reads %s', async (_name, content) => {
    const path = await tempFile(`dump-${Math.random()}.json`, content());
    let format: string | undefined;
    const papers = await collect(path, { onFormat: (f) => (format = f) });
    expect(format).toBe('pwc');
    expect(papers.map((p) => [p.id, p.published])).toEqual([
      ['a', '2017-06-12'],
      ['b', null],
      ['c', '2017-06-12'],
    ]);
    const again: Paper[] = [];
    for await (const p of readPwcPapers(path)) again.push(p);
    expect(again).toEqual(papers);
  });

  it('reads paperlist records like readPapers', async () => {
    const path = await tempFile('papers.jsonl.gz', gzipSync(jsonl([paper('x'), paper('y')])));
    let format: string | undefined;
    expect(await collect(path, { onFormat: (f) => (format = f) })).toEqual([paper('x'), paper('y')]);
    expect(format).toBe('paperlist');
  });

  it('honours a forced format', async () => {
    const path = await tempFile('forced.jsonl', jsonl([pwc('a')]));
    const error = await loadError(path, { format: 'paperlist' });
    expect(error.message).toBe(`${path} line 1: missing field "id"`);
  });

  it('names the line and the element of a bad record in a one-line array', async () => {
    const path = await tempFile('bad.json', JSON.stringify([pwc('a'), pwc('b'), pwc('a')]));
    const error = await loadError(path);
    expect(error.message).toBe(`${path} line 1: element 3: duplicate id "a" (first seen on line 1)`);
  });

  it('skips and reports every bad record with skipInvalid', async () => {
    const text = [JSON.stringify(pwc('a')), '{oops', JSON.stringify(pwc('b', { date: 'soon' })), JSON.stringify(pwc('a')), JSON.stringify(pwc('c'))].join('\n');
    const path = await tempFile('mixed.jsonl', text);
    const problems: LoadProblem[] = [];
    const papers = await collect(path, { skipInvalid: true, onInvalid: (p) => problems.push(p) });
    expect(papers.map((p) => p.id)).toEqual(['a', 'c']);
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4]);
    expect(problems[0]?.reason).toMatch(/^invalid JSON: /);
    expect(problems[1]?.reason).toBe('field "date": expected a real date YYYY-MM-DD, got "soon"');
    expect(problems[2]?.reason).toBe('duplicate id "a" (first seen on line 1)');
  });

  it('rejects ids repeated across inputs that share a registry, naming both', async () => {
    const first = await tempFile('first.jsonl', jsonl([paper('x'), paper('y')]));
    const second = await tempFile('second.json', `[\n${JSON.stringify(pwc('z'))},\n${JSON.stringify(pwc('y'))}\n]`);
    const ids = new IdRegistry();
    await collect(first, { ids });
    const error = await loadError(second, { ids });
    expect(error.message).toBe(`${second} line 3: element 2: duplicate id "y" (first seen in ${first} line 2)`);
  });

  it('reports progress in accepted records and compressed bytes', async () => {
    const records = Array.from({ length: PROGRESS_INTERVAL + 3 }, (_, i) => pwc(`p-${i}`));
    const data = gzipSync(jsonl(records));
    const path = await tempFile('progress.jsonl.gz', data);
    const progress: { records: number; bytes: number }[] = [];
    await collect(path, { onProgress: (p) => progress.push(p) });
    expect(progress.map((p) => p.records)).toEqual([PROGRESS_INTERVAL, PROGRESS_INTERVAL + 3]);
    expect(progress.at(-1)?.bytes).toBe(data.length);
  });

  it('rejects corrupt gzip data', async () => {
    const data = gzipSync(jsonl([pwc('a'), pwc('b')]));
    const path = await tempFile('corrupt.json.gz', data.subarray(0, data.length - 10));
    expect((await loadError(path)).reason).toMatch(/^corrupt gzip data: /);
  });
});
