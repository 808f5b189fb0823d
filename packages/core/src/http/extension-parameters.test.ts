import { describe, expect, it } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { createMemorySource } from '../memory/memory-source.js';
import { createPapersHandler } from './papers-handler.js';
import { PaperlistOptionsError, type PapersHandlerOptions } from './handler-options.js';

const papers = [
  makePaper({ id: 'a', title: 'Alpha', published: '2018-03-01', authors: ['Graham Neubig'], proceeding: 'acl-2018-7' }),
  makePaper({ id: 'b', title: 'Beta', published: '2020-01-01', authors: ['Chris Dyer', 'Graham Neubig'], proceeding: 'NIPS 2020 12' }),
  makePaper({ id: 'c', title: 'Gamma', published: null, authors: ['Ada Lovelace'], proceeding: null }),
  makePaper({ id: 'd', title: 'Delta', published: '2016-07-04', authors: [], proceeding: 'NeurIPS 2016 12' }),
];
const text = (body: Uint8Array | null) => (body === null ? '' : new TextDecoder().decode(body));

function handler(options: Partial<PapersHandlerOptions> = {}) {
  const handle = createPapersHandler({ source: createMemorySource(papers, { version: 'v1' }), pageSize: 1, allowedHosts: ['h'], ...options });
  return async (url: string, headers: Record<string, string> = {}) => {
    const response = (await handle({ method: 'GET', url, headers: { host: 'h', ...headers }, basePath: '/api', origin: 'http://h' }))!;
    return { status: response.status, headers: response.headers, body: text(response.body) };
  };
}

const ids = (body: string) => (JSON.parse(body) as { results: { id: string }[] }).results.map((p) => p.id);
const count = (body: string) => (JSON.parse(body) as { count: number }).count;

describe('the extension parameters over HTTP', () => {
  const call = handler();

  it.each([
    ['year=2018-2020&ordering=id', 2, ['a']],
    ['published_after=2019&ordering=id', 1, ['b']],
    ['published_before=2016-07&ordering=id', 1, ['d']],
    ['author=neubig&ordering=-published', 2, ['b']],
    ['author=graham+neubig|lovelace&ordering=id', 3, ['a']],
    ['venue=neurips&ordering=id', 2, ['b']],
    ['venue=NIPS&ordering=-id', 2, ['d']],
    ['proceeding=acl-2018-7|NIPS+2020+12&ordering=-id', 2, ['b']],
    ['q=alpha&year=2018', 1, ['a']],
    ['id=d|a|zz&ordering=id', 2, ['a']],
    ['id=c', 1, ['c']],
  ])('GET ?%s', async (query, expectedCount, expectedIds) => {
    const response = await call(`/api/papers/?${query}`);
    expect(response.status).toBe(200);
    expect(count(response.body)).toBe(expectedCount);
    expect(ids(response.body)).toEqual(expectedIds);
  });

  it.each([
    ['published_after=2020-02-30', '{"published_after":["Enter a valid date."]}'],
    ['published_before=x&year=20', '{"published_before":["Enter a valid date."],"year":["Enter a valid year or range of years: 2020, 2016-2020, 2010- or -2015."]}'],
    ['year=2020-13&published_after=1', '{"published_after":["Enter a valid date."],"year":["Enter a valid year or range of years: 2020, 2016-2020, 2010- or -2015."]}'],
    ['author=%21%21', '{"author":["Enter words of an author name, alternatives separated by |."]}'],
    ['count_only=perhaps&id=' + Array.from({ length: 101 }, (_, i) => i).join('|'), '{"id":["Ensure this value has at most 100 alternatives."],"count_only":["Must be a valid boolean."]}'],
    ['arxiv_id=' + Array.from({ length: 101 }, (_, i) => i).join('|'), '{"arxiv_id":["Ensure this value has at most 100 alternatives."]}'],
  ])('answers 400 in django-filter\'s shape for ?%s', async (query, body) => {
    const response = await call(`/api/papers/?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toBe(body);
    expect(response.headers).toMatchObject({ 'Content-Type': 'application/json', Allow: 'GET, HEAD, OPTIONS', Vary: 'Accept' });
  });

  it('answers count_only=1 with the exact count alone: no results, no links, whatever the page', async () => {
    for (const url of ['/api/papers/?count_only=1', '/api/papers/?count_only=true&page=99', '/api/papers/?count_only=1&author=neubig&page=last']) {
      const response = await call(url);
      expect(response.status, url).toBe(200);
      const expected = url.includes('neubig') ? 2 : 4;
      expect(response.body, url).toBe(`{"count":${expected},"next":null,"previous":null,"results":[]}`);
    }
    // count_only=0 is an ordinary page.
    expect(ids((await call('/api/papers/?count_only=0&ordering=id')).body)).toEqual(['a']);
  });

  it('keeps only the fields asked for, in the usual order, on the list and the detail', async () => {
    const list = JSON.parse((await call('/api/papers/?fields=title,id&ordering=id&items_per_page=2')).body) as { count: number; next: string; results: unknown[] };
    expect(list.results).toEqual([
      { id: 'a', title: 'Alpha' },
      { id: 'b', title: 'Beta' },
    ]);
    expect(list.next).toBe('http://h/api/papers/?fields=title%2Cid&items_per_page=2&ordering=id&page=2');
    const omitted = JSON.parse((await call('/api/papers/?omit=abstract,url_abs,url_pdf,authors,nips_id,conference,conference_url_abs,conference_url_pdf&id=b')).body) as { results: unknown[] };
    expect(omitted.results).toEqual([{ id: 'b', arxiv_id: null, title: 'Beta', published: '2020-01-01', proceeding: 'NIPS 2020 12' }]);
    const detail = await call('/api/papers/c/?fields=published,title');
    expect(detail.status).toBe(200);
    expect(detail.body).toBe('{"title":"Gamma","published":null}');
    expect((await call('/api/papers/c/?omit=published')).body).not.toContain('published');
    const all = await call('/api/papers/c/');
    expect((await call('/api/papers/c/?fields=')).body).toBe(all.body);
  });

  it('answers 400 naming an unknown field, on the list and the detail', async () => {
    for (const url of ['/api/papers/?fields=id,titel', '/api/papers/c/?fields=id,titel', '/api/papers/nope/?fields=titel']) {
      const response = await call(url);
      expect(response.status, url).toBe(400);
      expect(JSON.parse(response.body), url).toEqual({ fields: [expect.stringMatching(/^Unknown field: "titel"\. Fields are id, arxiv_id/)] });
    }
    // With the extensions off, fields is an unknown parameter: ignored.
    const off = handler({ extensions: false });
    expect((await off('/api/papers/c/?fields=titel')).body).toBe((await call('/api/papers/c/')).body);
  });

  it('marks the matches of q in _highlight, after the fields kept, and in the HTML view by default', async () => {
    const page = JSON.parse((await call('/api/papers/?q=graham+alph&highlight=title,authors&fields=id')).body) as { results: unknown[] };
    expect(page.results).toEqual([{ id: 'a', _highlight: { title: '<mark>Alph</mark>a', authors: ['<mark>Graham</mark> Neubig'] } }]);
    const whole = JSON.parse((await call('/api/papers/?q=alpha&highlight=1')).body) as { results: Record<string, unknown>[] };
    expect(Object.keys(whole.results[0]!).at(-1)).toBe('_highlight');
    expect(whole.results[0]!['_highlight']).toEqual({ title: '<mark>Alpha</mark>', abstract: '' });
    const none = JSON.parse((await call('/api/papers/?q=alpha&highlight=1&fields=')).body) as { results: Record<string, unknown>[] };
    expect(Object.keys(none.results[0]!)).toHaveLength(14);
    expect((await call('/api/papers/?q=alpha&highlight=0')).body).not.toContain('_highlight');
    const html = await call('/api/papers/?q=alph', { accept: 'text/html' });
    expect(html.body).toContain('<mark>Alph</mark>a');
  });

  it.each([
    ['highlight=colour', '{"highlight":["Enter 1 or fields among title, abstract, authors; unknown: colour."]}'],
    ['highlight=1&crop=-1', '{"crop":["A valid integer is required."]}'],
    ['highlight=1&crop=1001', '{"crop":["Ensure this value is less than or equal to 1000."]}'],
  ])('answers 400 for ?%s', async (query, body) => {
    const response = await call(`/api/papers/?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toBe(body);
  });

  it('shows the same errors as an HTML page to a browser', async () => {
    const response = await call('/api/papers/?year=soon', { accept: 'text/html' });
    expect(response.status).toBe(400);
    expect(response.headers['Content-Type']).toContain('text/html');
    expect(response.body).toContain('year: Enter a valid year or range of years');
  });

  it('carries the new parameters in next and previous, keys sorted', async () => {
    const first = JSON.parse((await call('/api/papers/?year=2016-&venue=neurips&proceeding=NIPS+2020+12|NeurIPS+2016+12')).body) as { next: string; count: number };
    expect(first.count).toBe(2);
    expect(first.next).toBe('http://h/api/papers/?page=2&proceeding=NIPS+2020+12%7CNeurIPS+2016+12&venue=neurips&year=2016-');
    const second = JSON.parse((await call('/api/papers/?page=2&proceeding=NIPS+2020+12%7CNeurIPS+2016+12&venue=neurips&year=2016-')).body) as { next: null; previous: string };
    expect(second.next).toBeNull();
    expect(second.previous).toBe('http://h/api/papers/?proceeding=NIPS+2020+12%7CNeurIPS+2016+12&venue=neurips&year=2016-');
  });

  it('answers a request without them with exactly the bytes and ETag of a handler without extensions', async () => {
    const off = handler({ extensions: false });
    for (const url of ['/api/papers/', '/api/papers/?q=alpha', '/api/papers/?ordering=-published&page=2', '/api/papers/?unknown=1&year_x=2']) {
      const [on, without] = await Promise.all([call(url), off(url)]);
      expect(on).toEqual(without);
      expect(on.headers.ETag).toBeDefined();
    }
  });

  it('with extensions: false, the new parameters are unknown and ignored (kept in links)', async () => {
    const off = handler({ extensions: false });
    const response = await off('/api/papers/?year=bad&author=zzz&venue=none');
    expect(response.status).toBe(200);
    expect(count(response.body)).toBe(4);
    expect((JSON.parse(response.body) as { next: string }).next).toBe('http://h/api/papers/?author=zzz&page=2&venue=none&year=bad');
  });

  it('takes a venue alias map, replacing the default', async () => {
    const custom = handler({ venueAliases: { ' NeurIPS ': 'NIPS' } });
    expect(count((await custom('/api/papers/?venue=neurips')).body)).toBe(2);
    expect(count((await custom('/api/papers/?venue=nips')).body)).toBe(2);
    const none = handler({ venueAliases: {} });
    expect(count((await none('/api/papers/?venue=nips')).body)).toBe(1);
  });

  it.each<[Partial<PapersHandlerOptions>, string]>([
    [{ extensions: 'yes' as unknown as boolean }, 'extensions'],
    [{ venueAliases: ['nips'] as unknown as Record<string, string> }, 'venueAliases'],
    [{ venueAliases: { nips: '' } }, 'venueAliases'],
    [{ venueAliases: { '': 'neurips' } }, 'venueAliases'],
  ])('refuses bad options %j', (options, code) => {
    expect(() => handler(options)).toThrow(PaperlistOptionsError);
    try {
      handler(options);
    } catch (error) {
      expect((error as PaperlistOptionsError).code).toBe(code);
    }
  });
});
