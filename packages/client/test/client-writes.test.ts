import { createMemorySource } from '@paperlist/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, PaperlistError, type Paper } from '../src/index.js';
import { servePaperlist, type TestServer } from './serve-paperlist.js';

const full = (id: string, title: string): Paper => ({
  id,
  arxiv_id: null,
  nips_id: null,
  url_abs: `https://example.org/${id}`,
  url_pdf: `https://example.org/${id}.pdf`,
  title,
  abstract: '',
  authors: [],
  published: null,
  conference: null,
  conference_url_abs: null,
  conference_url_pdf: null,
  proceeding: null,
});

let server: TestServer;
beforeAll(async () => {
  server = await servePaperlist({ source: createMemorySource([full('a', 'Alpha'), full('b', 'Beta')]), writeToken: 'tok' });
});
afterAll(() => server?.close());

describe('client writes', () => {
  const client = () => createClient({ baseUrl: `${server.origin}/api/v1`, token: 'tok', retries: 0 });

  it('upsert creates then replaces, with the fields left out at their absent value', async () => {
    const created = await client().upsert({ id: 'c', title: 'Gamma', url_abs: 'u', url_pdf: 'p' });
    expect(created).toEqual({ created: true, paper: { ...full('c', 'Gamma'), url_abs: 'u', url_pdf: 'p' } });
    const replaced = await client().upsert(full('c', 'Gamma, revised'));
    expect(replaced).toEqual({ created: false, paper: full('c', 'Gamma, revised') });
    expect((await client().getPaper('c')).title).toBe('Gamma, revised');
  });

  it('remove deletes; an unknown id is a 404 PaperlistError', async () => {
    await client().upsert(full('gone', 'Gone'));
    await expect(client().remove('gone')).resolves.toBeUndefined();
    await expect(client().remove('gone')).rejects.toMatchObject({ status: 404, detail: 'Not found.' });
  });

  it('bulk applies a batch (plain or gzip) and reports invalid lines with nothing applied', async () => {
    const result = await client().bulk([{ op: 'upsert', paper: full('d', 'Delta') }, { op: 'delete', id: 'b' }, { op: 'upsert', paper: full('a', 'Alpha 2') }]);
    expect(result).toEqual({ created: 1, updated: 1, deleted: 1 });
    expect(await client().bulk([{ op: 'delete', id: 'd' }], { gzip: true })).toEqual({ created: 0, updated: 0, deleted: 1 });
    const error = await client()
      .bulk([{ op: 'upsert', paper: full('e', 'Epsilon') }, { op: 'upsert', paper: { ...full('f', 'F'), published: 'yesterday' } }])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaperlistError);
    expect((error as PaperlistError).status).toBe(400);
    expect((error as PaperlistError).detail).toBe('1 invalid line: nothing was applied.');
    expect((error as PaperlistError).body).toEqual({
      detail: '1 invalid line: nothing was applied.',
      lines: [{ line: 2, errors: { published: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] } }],
    });
    await expect(client().getPaper('e')).rejects.toMatchObject({ status: 404 });
  });

  it('sends the token on writes only; without it a write is a 401', async () => {
    const seen: (string | null)[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(new Headers(init?.headers).get('authorization'));
      return fetch(input, init);
    };
    const spying = createClient({ baseUrl: `${server.origin}/api/v1`, token: 'tok', fetch: spy });
    await spying.getPaper('a');
    await spying.upsert(full('h', 'Eta'));
    expect(seen).toEqual([null, 'Token tok']);
    const anonymous = createClient({ baseUrl: `${server.origin}/api/v1`, retries: 0 });
    await expect(anonymous.remove('a')).rejects.toMatchObject({ status: 401, detail: 'Authentication credentials were not provided.' });
  });
});
