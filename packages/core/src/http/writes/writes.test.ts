import { describe, expect, it } from 'vitest';
import { makePaper } from '../../../test/make-paper.js';
import { createMemorySource } from '../../memory/memory-source.js';
import { serializePaper, type Paper } from '../../paper.js';
import type { PaperSource } from '../../source.js';
import { SourceOverloadedError } from '../../source-errors.js';
import type { WritableSource } from '../../writes/paper-changes.js';
import { PaperlistOptionsError, type PapersHandlerOptions } from '../handler-options.js';
import { createPapersHandler } from '../papers-handler.js';
import type { PapersRequestBody } from '../types.js';
import { constantTimeEqual, readCredentials } from './auth.js';

const TOKEN = 's3cret-token';
const AUTH = { authorization: `Token ${TOKEN}` };
const utf8 = new TextEncoder();
const text = (body: Uint8Array | null) => (body === null ? null : new TextDecoder().decode(body));

const base = () => [makePaper({ id: 'a', title: 'Alpha' }), makePaper({ id: 'b', title: 'Beta', authors: ['Ann Lee'] })];

interface Call {
  method?: string;
  url?: string;
  headers?: Record<string, string>;
  body?: PapersRequestBody | string;
}

function setup(options: Partial<PapersHandlerOptions> = { writeToken: TOKEN }, source: PaperSource = createMemorySource(base())) {
  const handle = createPapersHandler({ source, ...options });
  const call = async ({ method = 'GET', url = '/papers/', headers = {}, body }: Call) => {
    const answer = await handle({
      method,
      url,
      headers: { host: 'localhost', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? utf8.encode(body) : body }),
    });
    if (answer === null) throw new Error('not routed');
    return { status: answer.status, headers: answer.headers, text: text(answer.body), json: () => JSON.parse(text(answer.body) ?? 'null') as unknown };
  };
  return { source, call };
}

const json = { 'content-type': 'application/json', ...AUTH };
const ndjson = { 'content-type': 'application/x-ndjson', ...AUTH };
const paperJson = (fields: Partial<Paper> & { id: string }) => JSON.stringify(makePaper(fields));

async function gzip(data: string | Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([typeof data === 'string' ? utf8.encode(data) : data]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('HTTP writes: statuses', () => {
  it.each<[string, Call, number, unknown]>([
    ['PUT new → 201', { method: 'PUT', url: '/papers/c/', headers: json, body: paperJson({ id: 'c', title: 'Gamma' }) }, 201, makePaper({ id: 'c', title: 'Gamma' })],
    ['PUT existing → 200', { method: 'PUT', url: '/papers/a/', headers: json, body: paperJson({ id: 'a', title: 'Alpha 2' }) }, 200, makePaper({ id: 'a', title: 'Alpha 2' })],
    [
      'PUT without id takes the path id, defaults filled',
      { method: 'PUT', url: '/papers/c/', headers: json, body: '{"title":"Gamma","url_abs":"u","url_pdf":"p"}' },
      201,
      makePaper({ id: 'c', title: 'Gamma', url_abs: 'u', url_pdf: 'p' }),
    ],
    ['PUT id mismatch → 400', { method: 'PUT', url: '/papers/a/', headers: json, body: paperJson({ id: 'b' }) }, 400, { id: ['Does not match the id in the path ("a").'] }],
    [
      'PUT missing title → 400 DRF field errors',
      { method: 'PUT', url: '/papers/c/', headers: json, body: '{"url_abs":"u","url_pdf":"p","published":"2019-02-30","authors":["x",3],"colour":"red"}' },
      400,
      {
        title: ['This field is required.'],
        authors: { '1': ['Not a valid string.'] },
        published: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
        colour: ['Unknown field.'],
      },
    ],
    ['PUT null title → 400', { method: 'PUT', url: '/papers/c/', headers: json, body: '{"title":null,"url_abs":"u","url_pdf":"p"}' }, 400, { title: ['This field may not be null.'] }],
    ['PUT an array → 400', { method: 'PUT', url: '/papers/c/', headers: json, body: '[1]' }, 400, { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] }],
    ['PUT malformed JSON → 400', { method: 'PUT', url: '/papers/c/', headers: json, body: '{"title":' }, 400, 'JSON parse error - '],
    ['PUT text/plain → 415', { method: 'PUT', url: '/papers/c/', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'x' }, 415, { detail: 'Unsupported media type "text/plain" in request.' }],
    ['PUT no content type → 415', { method: 'PUT', url: '/papers/c/', headers: AUTH, body: '{}' }, 415, { detail: 'Unsupported media type "" in request.' }],
    ['PUT br encoding → 415', { method: 'PUT', url: '/papers/c/', headers: { ...json, 'content-encoding': 'br' }, body: '{}' }, 415, { detail: 'Unsupported content encoding "br" in request: send it plain or gzip.' }],
    ['PUT without credentials → 401', { method: 'PUT', url: '/papers/c/', headers: { 'content-type': 'application/json' }, body: '{}' }, 401, { detail: 'Authentication credentials were not provided.' }],
    ['PUT with Basic → 401 not provided', { method: 'PUT', url: '/papers/c/', headers: { authorization: 'Basic eDp5' }, body: '{}' }, 401, { detail: 'Authentication credentials were not provided.' }],
    ['PUT wrong token → 401', { method: 'PUT', url: '/papers/c/', headers: { ...json, authorization: 'Token nope' }, body: '{}' }, 401, { detail: 'Invalid token.' }],
    ['PUT token prefix → 401', { method: 'PUT', url: '/papers/c/', headers: { ...json, authorization: `Token ${TOKEN.slice(0, -1)}` }, body: '{}' }, 401, { detail: 'Invalid token.' }],
    ['PUT empty Token header → 401', { method: 'PUT', url: '/papers/c/', headers: { authorization: 'Token' } }, 401, { detail: 'Invalid token header. No credentials provided.' }],
    ['PUT token with spaces → 401', { method: 'PUT', url: '/papers/c/', headers: { authorization: 'Token a b' } }, 401, { detail: 'Invalid token header. Token string should not contain spaces.' }],
    ['PUT with Bearer → 201', { method: 'PUT', url: '/papers/c/', headers: { ...json, authorization: `bearer ${TOKEN}` }, body: paperJson({ id: 'c' }) }, 201, makePaper({ id: 'c' })],
    ['DELETE → 204', { method: 'DELETE', url: '/papers/a/', headers: AUTH }, 204, null],
    ['DELETE unknown → 404', { method: 'DELETE', url: '/papers/zz/', headers: AUTH }, 404, { detail: 'Not found.' }],
    ['DELETE without credentials → 401', { method: 'DELETE', url: '/papers/a/' }, 401, { detail: 'Authentication credentials were not provided.' }],
    ['PATCH → 405', { method: 'PATCH', url: '/papers/a/', headers: json, body: '{}' }, 405, { detail: 'Method "PATCH" not allowed.' }],
    ['PUT on the list → 405', { method: 'PUT', url: '/papers/', headers: json, body: '{}' }, 405, { detail: 'Method "PUT" not allowed.' }],
    ['POST on a paper → 405', { method: 'POST', url: '/papers/a/', headers: ndjson, body: '' }, 405, { detail: 'Method "POST" not allowed.' }],
    [
      'POST bulk → 200 counts',
      { method: 'POST', headers: ndjson, body: `${paperJson({ id: 'c' })}\n\n${paperJson({ id: 'a', title: 'A2' })}\r\n{"delete":"b"}\n{"delete":"zz"}\n` },
      200,
      { created: 1, updated: 1, deleted: 1 },
    ],
    ['POST empty bulk → 200 zeros', { method: 'POST', headers: ndjson, body: '\n \n' }, 200, { created: 0, updated: 0, deleted: 0 }],
    ['POST bulk as JSON → 415', { method: 'POST', headers: json, body: '[]' }, 415, { detail: 'Unsupported media type "application/json" in request.' }],
    ['POST without credentials → 401', { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: '' }, 401, { detail: 'Authentication credentials were not provided.' }],
  ])('%s', async (_name, request, status, expected) => {
    const { call } = setup();
    const res = await call(request);
    expect(res.status, res.text ?? '').toBe(status);
    expect(res.headers['ETag']).toBeUndefined();
    if (status === 204) expect([res.text, res.headers['Content-Type']]).toEqual([null, undefined]);
    else if (typeof expected === 'string') expect(res.text!.startsWith(`{"detail":"${expected}`), res.text!).toBe(true);
    else expect(res.json()).toEqual(expected);
    if (status === 401) expect(res.headers['WWW-Authenticate']).toBe('Token');
    if (status !== 204) expect(res.headers['Content-Type']).toBe('application/json');
  });

  it('PUT answers the stored paper, and GET then returns it with a new ETag', async () => {
    const { call } = setup();
    const before = await call({ url: '/papers/a/' });
    const put = await call({ method: 'PUT', url: '/papers/a/', headers: json, body: paperJson({ id: 'a', title: 'Alpha, revised' }) });
    expect(put.text).toBe(serializePaper(makePaper({ id: 'a', title: 'Alpha, revised' })));
    const after = await call({ url: '/papers/a/' });
    expect(after.text).toBe(put.text);
    expect(after.headers['ETag']).toBeDefined();
    expect(after.headers['ETag']).not.toBe(before.headers['ETag']);
    const list = await call({ url: '/papers/', headers: { 'if-none-match': before.headers['ETag']! } });
    expect(list.status).toBe(200);
  });

  it('DELETE of an absent id is a 404 without a write', async () => {
    const inner = createMemorySource(base());
    let writes = 0;
    const counting: WritableSource = { list: (q, o) => inner.list(q, o), get: (id, o) => inner.get(id, o), write: (changes, o) => (writes++, inner.write(changes, o)) };
    const { call } = setup({ writeToken: TOKEN }, counting);
    expect((await call({ method: 'DELETE', url: '/papers/zz/', headers: AUTH })).status).toBe(404);
    expect(writes).toBe(0);
    expect((await call({ method: 'DELETE', url: '/papers/a/', headers: AUTH })).status).toBe(204);
    expect(writes).toBe(1);
  });

  it('DELETE removes the paper: GET is then 404', async () => {
    const { call } = setup();
    expect((await call({ method: 'DELETE', url: '/papers/b/', headers: AUTH })).status).toBe(204);
    expect((await call({ url: '/papers/b/' })).status).toBe(404);
    expect((await call({ method: 'DELETE', url: '/papers/b/', headers: AUTH })).status).toBe(404);
  });

  it('a bulk batch with invalid lines is refused whole, every bad line listed', async () => {
    const { call } = setup();
    const body = [paperJson({ id: 'c' }), '', '{"id":"d","url_abs":"u","url_pdf":"p"}', '{"delete":5}', 'nope', '{"delete":"a","title":"x"}', '[]'].join('\n');
    const res = await call({ method: 'POST', headers: ndjson, body });
    expect(res.status).toBe(400);
    const answer = res.json() as { detail: string; lines: { line: number; errors: Record<string, unknown> }[] };
    expect(answer.detail).toBe('5 invalid lines: nothing was applied.');
    expect(answer.lines.map((line) => line.line)).toEqual([3, 4, 5, 6, 7]);
    expect(answer.lines[0]).toEqual({ line: 3, errors: { title: ['This field is required.'] } });
    expect(answer.lines[1]).toEqual({ line: 4, errors: { delete: ['Not a valid string: got int.'] } });
    expect(String((answer.lines[2]!.errors['non_field_errors'] as string[])[0])).toMatch(/^JSON parse error - /);
    expect(answer.lines[4]).toEqual({ line: 7, errors: { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] } });
    expect((await call({ url: '/papers/c/' })).status).toBe(404);
    expect((await call({ url: '/papers/a/' })).status).toBe(200);
  });

  it('a gzip bulk body is read (stream body, Content-Encoding: gzip)', async () => {
    const { call } = setup();
    const lines = Array.from({ length: 300 }, (_, i) => paperJson({ id: `g-${i}`, title: `Paper ${i}` })).join('\n');
    const zipped = await gzip(lines);
    const body = new Blob([zipped]).stream();
    const res = await call({ method: 'POST', headers: { ...ndjson, 'content-encoding': 'gzip' }, body });
    expect([res.status, res.json()]).toEqual([200, { created: 300, updated: 0, deleted: 0 }]);
    expect((await call({ url: '/papers/g-299/' })).status).toBe(200);
  });

  it('an async-iterable body (a Node request) is read', async () => {
    const { call } = setup();
    async function* chunks() {
      const json = paperJson({ id: 'it', title: 'Iterated' });
      yield utf8.encode(json.slice(0, 10));
      yield json.slice(10);
    }
    const res = await call({ method: 'PUT', url: '/papers/it/', headers: json, body: chunks() });
    expect(res.status).toBe(201);
  });

  it('malformed gzip is 400', async () => {
    const { call } = setup();
    const res = await call({ method: 'POST', headers: { ...ndjson, 'content-encoding': 'gzip' }, body: 'not gzip at all' });
    expect([res.status, res.json()]).toEqual([400, { detail: 'Malformed gzip body.' }]);
    const truncated = (await gzip(paperJson({ id: 'c' }))).slice(0, 20);
    expect((await call({ method: 'POST', headers: { ...ndjson, 'content-encoding': 'gzip' }, body: truncated })).status).toBe(400);
  });

  describe('413', () => {
    const limit = 1000;
    const tooLarge = { detail: `Request body too large: at most ${limit} bytes, received and decompressed.` };

    it('a body over maxWriteBytes, by Content-Length or as read', async () => {
      const { call } = setup({ writeToken: TOKEN, maxWriteBytes: limit });
      const big = paperJson({ id: 'c', abstract: 'x'.repeat(2000) });
      const declared = await call({ method: 'PUT', url: '/papers/c/', headers: { ...json, 'content-length': String(big.length) }, body: big });
      expect([declared.status, declared.json()]).toEqual([413, tooLarge]);
      let pulled = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(256).fill(0x20));
        },
      });
      const streamed = await call({ method: 'POST', headers: ndjson, body: endless });
      expect([streamed.status, streamed.json()]).toEqual([413, tooLarge]);
      expect(pulled).toBeLessThan(10);
    });

    it('a gzip bomb: small compressed, over the limit decompressed', async () => {
      const { call } = setup({ writeToken: TOKEN, maxWriteBytes: limit });
      const bomb = await gzip(new Uint8Array(10_000_000).fill(0x0a));
      expect(bomb.byteLength).toBeLessThan(limit * 20);
      const small = bomb.byteLength <= limit ? bomb : bomb.slice(0, limit);
      const res = await call({ method: 'POST', headers: { ...ndjson, 'content-encoding': 'gzip' }, body: small });
      expect([res.status, res.json()]).toEqual([413, tooLarge]);
    });
  });

  it('a write the source refuses is the reads’ 503 with Retry-After', async () => {
    const inner = createMemorySource(base());
    const busy: WritableSource = { list: (q, o) => inner.list(q, o), get: (id, o) => inner.get(id, o), write: () => Promise.reject(new SourceOverloadedError(9)) };
    const errors: unknown[] = [];
    const { call } = setup({ writeToken: TOKEN }, busy);
    const res = await call({ method: 'DELETE', url: '/papers/a/', headers: AUTH });
    expect([res.status, res.headers['Retry-After'], res.json()]).toEqual([503, '5', { detail: 'The server is busy answering other searches. Try again shortly.' }]);
    const failing: WritableSource = { ...busy, write: () => Promise.reject(new Error('disk full')) };
    const broken = setup({ writeToken: TOKEN, onError: (error) => errors.push(error) }, failing);
    const put = await broken.call({ method: 'PUT', url: '/papers/c/', headers: json, body: paperJson({ id: 'c' }) });
    expect([put.status, put.text]).toEqual([503, '{"detail":"The paper catalogue is temporarily unavailable. Try again later."}']);
    expect(errors).toHaveLength(1);
    const hanging: WritableSource = { ...busy, write: () => new Promise(() => {}) };
    const slow = setup({ writeToken: TOKEN, timeoutMs: 20 }, hanging);
    expect((await slow.call({ method: 'DELETE', url: '/papers/a/', headers: AUTH })).json()).toEqual({ detail: 'The paper catalogue did not answer in time. Try again later.' });
  });
});

describe('HTTP writes: Allow and the read-only default', () => {
  it('Allow names the write methods on 405, OPTIONS and every answer when writes are on', async () => {
    const { call } = setup();
    const cases: [Call, string][] = [
      [{ method: 'OPTIONS' }, 'GET, POST, HEAD, OPTIONS'],
      [{ method: 'PATCH' }, 'GET, POST, HEAD, OPTIONS'],
      [{}, 'GET, POST, HEAD, OPTIONS'],
      [{ method: 'OPTIONS', url: '/papers/a/' }, 'GET, PUT, DELETE, HEAD, OPTIONS'],
      [{ method: 'POST', url: '/papers/a/' }, 'GET, PUT, DELETE, HEAD, OPTIONS'],
      [{ url: '/papers/zz/' }, 'GET, PUT, DELETE, HEAD, OPTIONS'],
      [{ method: 'PUT', url: '/papers/a/' }, 'GET, PUT, DELETE, HEAD, OPTIONS'],
      [{ url: '/schema/' }, 'GET, HEAD, OPTIONS'],
    ];
    for (const [request, allow] of cases) expect((await call(request)).headers['Allow'], JSON.stringify(request)).toBe(allow);
  });

  it('without writeToken or authorize every write answer is byte-identical to a read-only handler', async () => {
    const source = createMemorySource(base());
    const readOnly = setup({}, source);
    const requests: Call[] = [
      { method: 'PUT', url: '/papers/a/', headers: json, body: paperJson({ id: 'a' }) },
      { method: 'DELETE', url: '/papers/a/', headers: AUTH },
      { method: 'POST', headers: ndjson, body: '{"delete":"a"}' },
      { method: 'OPTIONS' },
      { url: '/papers/a/' },
    ];
    for (const request of requests) {
      const res = await readOnly.call(request);
      const expected = request.method === undefined ? 200 : request.method === 'OPTIONS' ? 200 : 405;
      expect(res.status).toBe(expected);
      expect(res.headers['Allow']).toBe('GET, HEAD, OPTIONS');
      if (expected === 405) expect(res.text).toBe(`{"detail":"Method \\"${request.method}\\" not allowed."}`);
      expect(res.headers['WWW-Authenticate']).toBeUndefined();
    }
    expect((await readOnly.call({ url: '/papers/a/' })).status).toBe(200);
    // The same request through a handler made the way it was before writes existed.
    const plain = createPapersHandler({ source });
    for (const request of requests) {
      const request_ = { method: request.method ?? 'GET', url: request.url ?? '/papers/', headers: { host: 'localhost', ...request.headers } };
      const withBody = await createPapersHandler({ source })({ ...request_, body: utf8.encode(String(request.body ?? '')) });
      expect(withBody).toEqual(await plain(request_));
    }
  });

  it('writeToken or authorize with a read-only source, or both, is refused at creation', () => {
    const readOnly: PaperSource = { list: async () => ({ count: 0, results: [] }), get: async () => null };
    expect(() => createPapersHandler({ source: readOnly, writeToken: TOKEN })).toThrow(PaperlistOptionsError);
    expect(() => createPapersHandler({ source: readOnly, authorize: () => true })).toThrow(/not a WritableSource/);
    expect(() => createPapersHandler({ source: createMemorySource([]), writeToken: TOKEN, authorize: () => true })).toThrow(/not both/);
    for (const writeToken of ['', 'a b', 'é']) expect(() => createPapersHandler({ source: createMemorySource([]), writeToken })).toThrow(PaperlistOptionsError);
    expect(() => createPapersHandler({ source: createMemorySource([]), writeToken: TOKEN, maxWriteBytes: 0 })).toThrow(/maxWriteBytes/);
  });

  it('the authorize hook decides; false is 401 (not provided without Authorization, Invalid token with one)', async () => {
    const seen: string[] = [];
    const { call } = setup({
      authorize: async (request) => {
        seen.push(request.method);
        return request.headers['x-role'] === 'editor';
      },
    });
    expect((await call({ method: 'DELETE', url: '/papers/a/', headers: { 'x-role': 'editor' } })).status).toBe(204);
    const none = await call({ method: 'DELETE', url: '/papers/b/' });
    expect([none.status, none.json(), none.headers['WWW-Authenticate']]).toEqual([401, { detail: 'Authentication credentials were not provided.' }, 'Token']);
    const wrong = await call({ method: 'DELETE', url: '/papers/b/', headers: { authorization: 'Token x' } });
    expect([wrong.status, wrong.json()]).toEqual([401, { detail: 'Invalid token.' }]);
    expect(seen).toEqual(['DELETE', 'DELETE', 'DELETE']);
  });

  it('a GET never reads the body', async () => {
    const { call } = setup();
    let read = false;
    const body = new ReadableStream<Uint8Array>({ pull: () => void (read = true) }, { highWaterMark: 0 });
    expect((await call({ url: '/papers/a/', body })).status).toBe(200);
    expect((await call({ method: 'PUT', url: '/papers/a/', body, headers: { 'content-type': 'application/json' } })).status).toBe(401);
    expect(read).toBe(false);
  });
});

describe('credentials', () => {
  it('constantTimeEqual compares every byte whatever the lengths', () => {
    const bytes = (s: string) => utf8.encode(s);
    expect(constantTimeEqual(bytes('abc'), bytes('abc'))).toBe(true);
    expect(constantTimeEqual(bytes(''), bytes(''))).toBe(true);
    expect(constantTimeEqual(bytes('abc'), bytes('abd'))).toBe(false);
    expect(constantTimeEqual(bytes('abc'), bytes('abc\0'))).toBe(false);
    expect(constantTimeEqual(bytes('abc\0'), bytes('abc'))).toBe(false);
    expect(constantTimeEqual(bytes(''), bytes('\0'))).toBe(false);
    // Every index is read: a proxy counting reads sees max(length) reads of each side.
    const reads = { a: 0, b: 0 };
    const counting = (array: Uint8Array, key: 'a' | 'b') =>
      new Proxy(array, { get: (target, property) => (typeof property === 'string' && /^\d+$/.test(property) && reads[key]++, Reflect.get(target, property)) });
    constantTimeEqual(counting(bytes('xbcdef'), 'a'), counting(bytes('abcdefgh'), 'b'));
    expect(reads).toEqual({ a: 8, b: 8 });
  });

  it.each([
    [undefined, null],
    ['Basic abc', null],
    ['Token abc', 'abc'],
    ['token   abc ', 'abc'],
    ['Bearer abc', 'abc'],
    ['Token', { failure: 'Invalid token header. No credentials provided.' }],
    ['Token a b', { failure: 'Invalid token header. Token string should not contain spaces.' }],
  ])('readCredentials(%j)', (header, expected) => {
    expect(readCredentials(header)).toEqual(expected);
  });
});
