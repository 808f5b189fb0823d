import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Paper } from '../paper.js';
import { loadPapers, PaperLoadError, PROGRESS_INTERVAL, readPapers, type LoadProblem, type ReadPapersOptions } from './index.js';

function paper(id: string, fields: Partial<Record<keyof Paper, unknown>> = {}): Paper {
  return {
    id,
    arxiv_id: null,
    nips_id: null,
    url_abs: `https://example.org/${id}`,
    url_pdf: `https://example.org/${id}.pdf`,
    title: `Title of ${id} — ünïcødé 論文`,
    abstract: 'An abstract with "quotes", [brackets], {braces} and a \\ backslash.',
    authors: ['A. Author', 'B. Author'],
    published: '2020-02-29',
    conference: null,
    conference_url_abs: null,
    conference_url_pdf: null,
    proceeding: null,
    ...fields,
  } as Paper;
}

const papers = [paper('first'), paper('second', { published: null }), paper('third', { authors: [] })];
const jsonl = (records: readonly unknown[]): string => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** An async iterable of `size`-byte chunks of `data`. */
async function* chunks(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function collect(input: Parameters<typeof readPapers>[0], options?: ReadPapersOptions): Promise<Paper[]> {
  const out: Paper[] = [];
  for await (const p of readPapers(input, options)) out.push(p);
  return out;
}

async function loadError(input: Parameters<typeof readPapers>[0], options?: ReadPapersOptions): Promise<PaperLoadError> {
  try {
    await collect(input, options);
  } catch (error) {
    expect(error).toBeInstanceOf(PaperLoadError);
    return error as PaperLoadError;
  }
  throw new Error('expected a PaperLoadError');
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paperlist-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tempFile(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('readPapers reads', () => {
  const pretty = JSON.stringify(papers, null, 2);
  it.each<[string, string | Uint8Array]>([
    ['JSON Lines', jsonl(papers)],
    ['JSON Lines without a final newline', jsonl(papers).trimEnd()],
    ['JSON Lines with blank lines', '\n\n' + jsonl(papers).replaceAll('\n', '\n\n  \n')],
    ['JSON Lines with CRLF', jsonl(papers).replaceAll('\n', '\r\n')],
    ['JSON Lines with a BOM', '\uFEFF' + jsonl(papers)],
    ['gzipped JSON Lines', gzipSync(jsonl(papers))],
    ['a compact JSON array', JSON.stringify(papers)],
    ['a pretty-printed JSON array', pretty],
    ['a JSON array with a BOM and leading blank lines', '\uFEFF\n\n  ' + pretty + '\n'],
    ['a gzipped JSON array', gzipSync(pretty)],
  ])('%s', async (_name, content) => {
    const data = typeof content === 'string' ? bytes(content) : content;
    const path = await tempFile('catalog', data);
    expect(await collect(path)).toEqual(papers);
    expect(await collect(Readable.from([Buffer.from(data)]))).toEqual(papers);
    // One byte at a time: splits the gzip magic, multi-byte characters and every element.
    expect(await collect(chunks(data, 1))).toEqual(papers);
    expect(await collect(chunks(data, 7))).toEqual(papers);
  });

  it('an empty input as no papers', async () => {
    expect(await collect(chunks(new Uint8Array(), 1))).toEqual([]);
    expect(await collect(chunks(bytes('\n  \r\n'), 1))).toEqual([]);
    expect(await collect(chunks(bytes('[]'), 1))).toEqual([]);
    expect(await collect(chunks(gzipSync(''), 1))).toEqual([]);
  });

  it('a multi-byte character split between chunks', async () => {
    const text = jsonl([paper('x', { title: '€𝄞é' })]);
    const data = bytes(text);
    const euro = text.indexOf('€');
    const at = new TextEncoder().encode(text.slice(0, euro)).length + 1; // inside the 3-byte €
    const parts = [data.subarray(0, at), data.subarray(at, at + 3), data.subarray(at + 3)];
    const result = await collect((async function* () { yield* parts; })());
    expect(result[0]?.title).toBe('€𝄞é');
  });

  // Chunks are decoded in slices of 32 KB (see read-records.ts): many papers whose multi-byte
  // characters fall on every byte position, in chunks larger than a slice and of odd sizes.
  it.each([
    ['JSON Lines', (records: Paper[]) => jsonl(records)],
    ['a JSON array', (records: Paper[]) => JSON.stringify(records, null, 1)],
  ])('%s of many papers, in chunks larger than a decoded slice', async (_name, format) => {
    const many = Array.from({ length: 700 }, (_, i) => paper(`p${i}`, { title: `${'é'.repeat(i % 5)}€ ${'x'.repeat(i % 7)}𝄞 ${i}`, abstract: 'ü'.repeat(40 + (i % 13)) }));
    const data = bytes(format(many));
    expect(data.length).toBeGreaterThan(3 * 32 * 1024);
    for (const size of [32 * 1024, 32 * 1024 + 1, 100_003, 128 * 1024, data.length]) {
      expect(await collect(chunks(data, size))).toEqual(many);
    }
    const path = await tempFile('many.gz', gzipSync(data));
    expect(await collect(path)).toEqual(many);
  });

  it('Readable chunks given as strings', async () => {
    expect(await collect(Readable.from(['[', JSON.stringify(papers[0]), ']']))).toEqual([papers[0]]);
  });
});

describe('readPapers errors', () => {
  const good = (id: string): string => JSON.stringify(paper(id));
  it.each<[string, string, number, string]>([
    ['invalid JSON on a line', `${good('a')}\n{"id": "b",\n${good('c')}\n`, 2, 'invalid JSON: '],
    ['a bad record', `${good('a')}\n\n${JSON.stringify(paper('b', { published: '2019-02-30' }))}\n`, 3, 'field "published": expected a real date YYYY-MM-DD, got "2019-02-30"'],
    ['a missing field', `${JSON.stringify({ ...paper('a'), title: undefined })}\n`, 1, 'missing field "title"'],
    ['a record that is not an object', `${good('a')}\n[1]\n`, 2, 'expected a JSON object, got an array'],
    ['a duplicate id', `${good('a')}\n${good('b')}\n\n${good('a')}\n`, 4, 'duplicate id "a" (first seen on line 1)'],
    ['a truncated last line', `${good('a')}\n${good('b').slice(0, 40)}`, 2, 'invalid JSON: '],
    // `[` is line 1 and each pretty-printed paper takes 18 lines.
    ['a bad element in a pretty array', JSON.stringify([paper('a'), paper('b', { authors: [1] })], null, 2), 20, 'field "authors": expected an array of strings, got the number 1 at index 0'],
    ['a bad element in a compact array', `[${good('a')},\n${good('b')},${JSON.stringify({ ...paper('c'), extra: 1 })}]`, 2, 'unknown field "extra"'],
    ['a duplicate id in an array', `[\n${good('a')},\n${good('a')}\n]`, 3, 'duplicate id "a" (first seen on line 2)'],
    ['invalid JSON in an array', `[\n${good('a')},\n{"id":}\n]`, 3, 'invalid JSON: '],
    ['a truncated array', `[\n${good('a')},\n${good('b').slice(0, 50)}`, 3, 'the JSON array is truncated (the element starting on line 3 is incomplete)'],
    ['an unclosed array', `[\n${good('a')}\n`, 3, 'the JSON array is not closed'],
    ['trailing garbage after an array', `[${good('a')}]\n{}`, 2, 'unexpected data after the end of the JSON array'],
  ])('%s', async (_name, text, line, reason) => {
    const path = await tempFile('bad.jsonl', text);
    const error = await loadError(path);
    expect(error.line).toBe(line);
    expect(error.reason).toContain(reason);
    expect(error.file).toBe(path);
    expect(error.message).toBe(`${path} line ${line}: ${error.reason}`);
    // The same from an iterable of tiny chunks, which has no file name.
    const streamed = await loadError(chunks(bytes(text), 3));
    expect(streamed.line).toBe(line);
    expect(streamed.reason).toBe(error.reason);
    expect(streamed.file).toBeUndefined();
    expect(streamed.message).toBe(`line ${line}: ${error.reason}`);
  });

  it('names the input with the file option', async () => {
    const error = await loadError(chunks(bytes('{}\n'), 100), { file: 'papers.jsonl' });
    expect(error.message).toBe('papers.jsonl line 1: missing field "id"');
  });

  it('reports the line in the decompressed text of a gzip file', async () => {
    const path = await tempFile('bad.jsonl.gz', gzipSync(`${good('a')}\n${good('a')}\n`));
    const error = await loadError(path);
    expect(error.message).toBe(`${path} line 2: duplicate id "a" (first seen on line 1)`);
  });

  it('rejects corrupt gzip data', async () => {
    const data = gzipSync(jsonl(papers));
    const error = await loadError(chunks(data.subarray(0, data.length - 20), 64));
    expect(error.reason).toMatch(/^corrupt gzip data: /);
  });

  it('rejects invalid UTF-8', async () => {
    const data = new Uint8Array([...bytes(`${good('a')}\n{"id": "`), 0xff, 0xfe, ...bytes('"}\n')]);
    const error = await loadError(chunks(data, 1000));
    expect(error.reason).toBe('the input is not valid UTF-8');
  });

  it('rejects invalid UTF-8 in a later slice of a large chunk, naming its line', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => good(`a${i}`));
    const head = bytes(lines.join('\n') + '\n{"id": "');
    expect(head.length).toBeGreaterThan(32 * 1024);
    const data = new Uint8Array([...head, 0xff, 0xfe, ...bytes('"}\n')]);
    const error = await loadError(chunks(data, data.length));
    expect(error.reason).toBe('the input is not valid UTF-8');
    expect(error.line).toBeGreaterThan(1);
  });

  it('passes on I/O errors', async () => {
    await expect(collect(join(dir, 'missing.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('passes on errors of the input stream', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield bytes(`${good('a')}\n`);
      throw new Error('disk on fire');
    }
    await expect(collect(failing())).rejects.toThrow('disk on fire');
    async function* failingGzip(): AsyncGenerator<Uint8Array> {
      yield gzipSync(jsonl(papers)).subarray(0, 30);
      throw new Error('network down');
    }
    await expect(collect(failingGzip())).rejects.toThrow('network down');
  });
});

describe('readPapers options', () => {
  const mixed = [
    JSON.stringify(paper('a')),
    '{not json',
    JSON.stringify(paper('b', { published: '2019-13-01' })),
    JSON.stringify(paper('a')),
    '',
    JSON.stringify(paper('c')),
  ].join('\n');

  it('skipInvalid skips and reports every bad record', async () => {
    const problems: LoadProblem[] = [];
    const result = await loadPapers(chunks(bytes(mixed), 5), { skipInvalid: true, onInvalid: (p) => problems.push(p) });
    expect(result.papers.map((p) => p.id)).toEqual(['a', 'c']);
    expect(result.skipped).toBe(3);
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4]);
    expect(problems[0]?.reason).toMatch(/^invalid JSON: /);
    expect(problems[1]?.reason).toBe('field "published": expected a real date YYYY-MM-DD, got "2019-13-01"');
    expect(problems[2]?.reason).toBe('duplicate id "a" (first seen on line 1)');
  });

  it('skipInvalid skips bad elements of an array, not a malformed array', async () => {
    const text = `[${JSON.stringify(paper('a'))}, {"x": 1}, ${JSON.stringify(paper('b'))}]`;
    expect(await loadPapers(chunks(bytes(text), 9), { skipInvalid: true })).toEqual({ papers: [paper('a'), paper('b')], skipped: 1 });
    await expect(loadPapers(chunks(bytes(text.slice(0, -1)), 9), { skipInvalid: true })).rejects.toBeInstanceOf(PaperLoadError);
  });

  it('loadPapers throws on the first bad record without skipInvalid', async () => {
    await expect(loadPapers(chunks(bytes(mixed), 5))).rejects.toMatchObject({ line: 2 });
  });

  it('onProgress reports records and compressed bytes every PROGRESS_INTERVAL papers and at the end', async () => {
    const count = PROGRESS_INTERVAL * 2 + 5;
    const lines: string[] = [];
    for (let i = 0; i < count; i++) lines.push(JSON.stringify(paper(`p-${i}`)));
    const data = gzipSync(lines.join('\n'));
    const progress: { records: number; bytes: number }[] = [];
    const { papers: loaded } = await loadPapers(chunks(data, 4096), { onProgress: (p) => progress.push(p) });
    expect(loaded).toHaveLength(count);
    expect(progress.map((p) => p.records)).toEqual([PROGRESS_INTERVAL, PROGRESS_INTERVAL * 2, count]);
    expect(progress.at(-1)?.bytes).toBe(data.length);
    expect(progress[0]!.bytes).toBeGreaterThan(0);
    expect(progress[0]!.bytes).toBeLessThanOrEqual(progress[1]!.bytes);
  });

  it('stops on an aborted signal', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const p of readPapers(chunks(bytes(jsonl(papers)), 10), { signal: controller.signal })) {
        seen.push(p.id);
        controller.abort(new Error('stop'));
      }
    })();
    await expect(reading).rejects.toThrow('stop');
    expect(seen).toEqual(['first']);
    await expect(collect(chunks(bytes(jsonl(papers)), 10), { signal: controller.signal })).rejects.toThrow('stop');
  });

  it('closes the input when the consumer stops early', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) yield bytes(`${JSON.stringify(paper(`p-${Math.random()}`))}\n`);
      } finally {
        closed = true;
      }
    }
    for await (const p of readPapers(source())) {
      expect(p.id).toMatch(/^p-/);
      break;
    }
    expect(closed).toBe(true);

    closed = false;
    async function* gzipped(): AsyncGenerator<Uint8Array> {
      try {
        // Concatenated gzip members form one valid gzip stream.
        for (let i = 0; ; i++) {
          yield gzipSync(`${JSON.stringify(paper(`p-${i}`))}\n`);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      } finally {
        closed = true;
      }
    }
    for await (const p of readPapers(gzipped())) {
      expect(p.id).toBe('p-0');
      break;
    }
    // The gunzip pipeline closes its source once the source's pending read settles.
    await vi.waitFor(() => expect(closed).toBe(true));
  });
});
