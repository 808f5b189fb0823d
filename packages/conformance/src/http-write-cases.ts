import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, type Paper } from '@paperlist/core';
import { fixturePapers } from './fixture-papers.js';
import { rawRequest, type RawRequestOptions, type RawResponse } from './raw-request.js';
import type { ConformanceServerOptions, RunningServer } from './serve-fetch-handler.js';

const MOUNT = '/api/v1';
const LIST = `${MOUNT}/papers/`;
const TOKEN = 'conformance-write-token';
const AUTH = { authorization: `Token ${TOKEN}` };
const JSON_BODY = { ...AUTH, 'content-type': 'application/json' };
const NDJSON_BODY = { ...AUTH, 'content-type': 'application/x-ndjson' };

const paper = (id: string, title: string): Paper => ({
  id,
  arxiv_id: null,
  nips_id: null,
  url_abs: `https://example.org/${id}`,
  url_pdf: `https://example.org/${id}.pdf`,
  title,
  abstract: '',
  authors: ['Zoë Kovács'],
  published: '2024-02-29',
  conference: null,
  conference_url_abs: null,
  conference_url_pdf: null,
  proceeding: null,
});

/**
 * The write API over real HTTP (docs/http-api.md, "Writes"): a handler made with a `writeToken`
 * over a writable memory source, whatever source the target reads from elsewhere. Every adapter
 * must carry the request body to the core and the write answers back unchanged.
 */
export function defineWriteCases(start: (options: ConformanceServerOptions) => Promise<RunningServer>): void {
  describe('writes (writeToken set)', () => {
    const servers: RunningServer[] = [];
    let writable: RunningServer;
    let limited: RunningServer;

    beforeAll(async () => {
      const fresh = () => createMemorySource(fixturePapers.map((p) => structuredClone(p)));
      writable = await start({ source: fresh(), mount: MOUNT, writeToken: TOKEN });
      limited = await start({ source: fresh(), mount: MOUNT, writeToken: TOKEN, maxWriteBytes: 2000 });
      servers.push(writable, limited);
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.close()));
    });

    const send = (path: string, options: RawRequestOptions) => rawRequest(writable.url, path, options);
    const expectJson = (res: RawResponse, status: number, body: unknown, allow: string) => {
      expect(res.status, res.text).toBe(status);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['allow']).toBe(allow);
      expect(res.headers['etag']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(JSON.parse(res.text)).toEqual(body);
    };
    const ONE = 'GET, PUT, DELETE, HEAD, OPTIONS';
    const MANY = 'GET, POST, HEAD, OPTIONS';

    it('PUT a new paper: 201 with the stored paper; GET returns it and the list ETag moves', async () => {
      const before = await send(LIST, {});
      const created = paper('written-paper', 'Written Through the API');
      const res = await send(`${LIST}written-paper/`, { method: 'PUT', headers: JSON_BODY, body: JSON.stringify(created) });
      expectJson(res, 201, created, ONE);
      expect(res.text).toBe(JSON.stringify(created));
      const read = await send(`${LIST}written-paper/`, {});
      expect([read.status, read.text]).toEqual([200, res.text]);
      const after = await send(LIST, { headers: { 'if-none-match': String(before.headers['etag']) } });
      expect(after.status).toBe(200);
      expect(after.headers['etag']).not.toBe(before.headers['etag']);
      expect(after.headers['allow']).toBe(MANY);
    });

    it('PUT an existing paper (no id in the body): 200', async () => {
      const { id: _id, ...fields } = paper('deep-learning', 'Deep Learning, Revised');
      const res = await send(`${LIST}deep-learning/`, { method: 'PUT', headers: JSON_BODY, body: JSON.stringify(fields) });
      expectJson(res, 200, paper('deep-learning', 'Deep Learning, Revised'), ONE);
    });

    it('PUT errors: id mismatch and missing fields are DRF-shaped 400s, other types 415', async () => {
      const mismatch = await send(`${LIST}deep-learning/`, { method: 'PUT', headers: JSON_BODY, body: JSON.stringify(paper('other', 'x')) });
      expectJson(mismatch, 400, { id: ['Does not match the id in the path ("deep-learning").'] }, ONE);
      const missing = await send(`${LIST}new-one/`, { method: 'PUT', headers: JSON_BODY, body: '{"url_abs":"u","url_pdf":"p"}' });
      expectJson(missing, 400, { title: ['This field is required.'] }, ONE);
      const malformed = await send(`${LIST}new-one/`, { method: 'PUT', headers: JSON_BODY, body: '{"title"' });
      expect(malformed.status).toBe(400);
      expect(JSON.parse(malformed.text).detail).toMatch(/^JSON parse error - /);
      const plain = await send(`${LIST}new-one/`, { method: 'PUT', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'hello' });
      expectJson(plain, 415, { detail: 'Unsupported media type "text/plain" in request.' }, ONE);
    });

    it('401 without or with wrong credentials, with WWW-Authenticate: Token; nothing written', async () => {
      const body = JSON.stringify(paper('intruder', 'Intruder'));
      const none = await send(`${LIST}intruder/`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
      expectJson(none, 401, { detail: 'Authentication credentials were not provided.' }, ONE);
      expect(none.headers['www-authenticate']).toBe('Token');
      const wrong = await send(LIST, { method: 'POST', headers: { ...NDJSON_BODY, authorization: 'Bearer nope' }, body });
      expectJson(wrong, 401, { detail: 'Invalid token.' }, MANY);
      expect(wrong.headers['www-authenticate']).toBe('Token');
      expect((await send(`${LIST}intruder/`, {})).status).toBe(404);
    });

    it('DELETE: 204 with no body, then 404', async () => {
      await send(`${LIST}to-delete/`, { method: 'PUT', headers: JSON_BODY, body: JSON.stringify(paper('to-delete', 'Soon Gone')) });
      const res = await send(`${LIST}to-delete/`, { method: 'DELETE', headers: AUTH });
      expect([res.status, res.body.length, res.headers['allow']]).toEqual([204, 0, ONE]);
      expect((await send(`${LIST}to-delete/`, {})).status).toBe(404);
      expectJson(await send(`${LIST}to-delete/`, { method: 'DELETE', headers: AUTH }), 404, { detail: 'Not found.' }, ONE);
    });

    it('POST a gzip JSON Lines batch: 200 with the counts, all visible', async () => {
      const lines = [paper('bulk-1', 'Bulk One'), paper('bulk-2', 'Bulk Two')].map((p) => JSON.stringify(p));
      const body = gzipSync(`${lines.join('\n')}\n\n{"delete":"bulk-1"}\n{"delete":"graph-attention-networks"}\n`);
      const res = await send(LIST, { method: 'POST', headers: { ...NDJSON_BODY, 'content-encoding': 'gzip' }, body });
      expectJson(res, 200, { created: 2, updated: 0, deleted: 2 }, MANY);
      expect((await send(`${LIST}bulk-2/`, {})).status).toBe(200);
      expect((await send(`${LIST}bulk-1/`, {})).status).toBe(404);
      expect((await send(`${LIST}graph-attention-networks/`, {})).status).toBe(404);
    });

    it('POST a batch with an invalid line: 400 listing it, nothing applied', async () => {
      const body = `${JSON.stringify(paper('never-1', 'Never'))}\n{"id":"never-2"}\n{"delete":"deep-learning-1"}\n`;
      const res = await send(LIST, { method: 'POST', headers: NDJSON_BODY, body });
      expectJson(res, 400, { detail: '1 invalid line: nothing was applied.', lines: [{ line: 2, errors: { url_abs: ['This field is required.'], url_pdf: ['This field is required.'], title: ['This field is required.'] } }] }, MANY);
      expect((await send(`${LIST}never-1/`, {})).status).toBe(404);
      expect((await send(`${LIST}deep-learning-1/`, {})).status).toBe(200);
    });

    it('413 past maxWriteBytes (a gzip body counted decompressed too)', async () => {
      const big = JSON.stringify(paper('big', 'x'.repeat(5000)));
      const detail = { detail: 'Request body too large: at most 2000 bytes, received and decompressed.' };
      const res = await rawRequest(limited.url, `${LIST}big/`, { method: 'PUT', headers: JSON_BODY, body: big });
      expectJson(res, 413, detail, ONE);
      const zipped = gzipSync(big);
      expect(zipped.length).toBeLessThan(2000);
      const inflated = await rawRequest(limited.url, `${LIST}big/`, { method: 'PUT', headers: { ...JSON_BODY, 'content-encoding': 'gzip' }, body: zipped });
      expectJson(inflated, 413, detail, ONE);
      // The connection still serves the next request.
      expect((await rawRequest(limited.url, `${LIST}deep-learning/`, {})).status).toBe(200);
    });

    it('OPTIONS and 405 name the write methods in Allow', async () => {
      expect((await send(LIST, { method: 'OPTIONS' })).headers['allow']).toBe(MANY);
      expect((await send(`${LIST}deep-learning/`, { method: 'OPTIONS' })).headers['allow']).toBe(ONE);
      const patch = await send(`${LIST}deep-learning/`, { method: 'PATCH', headers: JSON_BODY, body: '{}' });
      expectJson(patch, 405, { detail: 'Method "PATCH" not allowed.' }, ONE);
      const put = await send(LIST, { method: 'PUT', headers: JSON_BODY, body: '{}' });
      expectJson(put, 405, { detail: 'Method "PUT" not allowed.' }, MANY);
    });
  });
}
