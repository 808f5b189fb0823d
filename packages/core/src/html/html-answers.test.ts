import { describe, expect, it, vi } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { createPapersHandler } from '../http/papers-handler.js';
import { createMemorySource } from '../memory/memory-source.js';
import type { PaperSource } from '../source.js';
import { HTML_CONTENT_TYPE } from './html-response.js';

// The handler's HTML answers: chosen by negotiation, same statuses and contract headers as JSON.
const papers = [
  makePaper({ id: 'a', title: 'Alpha <b>', abstract: 'About & more', published: '2020-01-01' }),
  makePaper({ id: 'b', title: 'Beta', url_abs: 'javascript:alert(1)' }),
  makePaper({ id: 'c', title: 'Gamma' }),
];
const source = createMemorySource(papers, { version: 'v1' });
const handle = createPapersHandler({ source, pageSize: 2, allowedHosts: ['h'] });
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const text = (body: Uint8Array | null) => (body === null ? null : new TextDecoder().decode(body));

async function call(url: string, { method = 'GET', accept = BROWSER, headers = {} as Record<string, string> } = {}) {
  const response = await handle({ method, url, headers: { host: 'h', accept, ...headers }, basePath: '/api', origin: 'http://h' });
  return { status: response!.status, headers: response!.headers, body: text(response!.body) };
}

describe('HTML answers', () => {
  it.each([
    ['/api/papers/', 200, '<h1>Papers</h1>'],
    ['/api/papers/?page=2', 200, 'href="http://h/api/papers/c/">Gamma</a>'],
    ['/api/papers/?format=html', 200, '<h1>Papers</h1>'],
    ['/api/papers/a/', 200, '<h1 id="title">Alpha &lt;b&gt;</h1>'],
    ['/api/papers/b/', 200, '<dd><code>javascript:alert(1)</code></dd>'],
    ['/api/papers/nope/', 404, '<h1>404 Not found</h1>\n<p>Not found.</p>'],
    ['/api/papers/?page=9', 404, '<p>Invalid page.</p>'],
    ['/api/papers/?q=%ZZ', 400, '<p>Malformed query string: invalid percent-encoding or UTF-8.</p>'],
    [`/api/papers/?q=${'a'.repeat(1001)}`, 400, '<h1>400 Bad request</h1>'],
  ])('GET %s', async (url, status, fragment) => {
    const response = await call(url);
    expect(response.status).toBe(status);
    expect(response.headers).toMatchObject({ Allow: 'GET, HEAD, OPTIONS', Vary: 'Accept', 'Content-Type': HTML_CONTENT_TYPE });
    expect(response.headers['Content-Security-Policy']).toContain("default-src 'none'");
    expect(response.headers['Content-Length']).toBe(String(new TextEncoder().encode(response.body!).byteLength));
    expect(response.body).toContain(fragment);
  });

  it('answers 405 with an HTML page to a browser', async () => {
    const response = await call('/api/papers/', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.body).toContain('<p>Method &quot;POST&quot; not allowed.</p>');
  });

  it('answers 503 with an HTML page when the source fails', async () => {
    const failing: PaperSource = { list: () => Promise.reject(new Error('down')), get: () => Promise.reject(new Error('down')) };
    const broken = createPapersHandler({ source: failing, onError: vi.fn() });
    const response = await broken({ method: 'GET', url: '/papers/', headers: { accept: 'text/html' } });
    expect(response?.status).toBe(503);
    expect(response?.headers['Content-Type']).toBe(HTML_CONTENT_TYPE);
    expect(text(response!.body)).toContain('temporarily unavailable');
  });

  it('shows the filter fields once a request uses one, echoing the values (never as hidden copies)', async () => {
    const plain = await call('/api/papers/?q=alpha&unknown=1');
    expect(plain.body).not.toContain('name="year"');
    const filtered = await call('/api/papers/?year=2020&author=a+%3Cb%3E&x=1');
    expect(filtered.status).toBe(200);
    expect(filtered.body).toContain('<input type="text" name="year" value="2020"');
    expect(filtered.body).toContain('name="author" value="a &lt;b&gt;"');
    expect(filtered.body).toContain('name="venue" value=""');
    expect(filtered.body).not.toContain('type="hidden" name="year"');
    expect(filtered.body).toContain('<input type="hidden" name="x" value="1">');
    const off = createPapersHandler({ source, pageSize: 2, allowedHosts: ['h'], extensions: false });
    const ignored = await off({ method: 'GET', url: '/api/papers/?year=2020', headers: { host: 'h', accept: BROWSER }, basePath: '/api', origin: 'http://h' });
    expect(text(ignored!.body)).toContain('<input type="hidden" name="year" value="2020">');
  });

  it('keeps JSON for ?format=json, */* and ties, and for 406 and unknown formats', async () => {
    expect((await call('/api/papers/?format=json')).headers['Content-Type']).toBe('application/json');
    expect((await call('/api/papers/', { accept: '*/*' })).headers['Content-Type']).toBe('application/json');
    expect((await call('/api/papers/', { accept: 'text/html, application/json' })).headers['Content-Type']).toBe('application/json');
    expect(await call('/api/papers/?format=xml')).toMatchObject({ status: 404, body: '{"detail":"Not found."}' });
    expect(await call('/api/papers/', { accept: 'image/png' })).toMatchObject({ status: 406 });
    expect((await call('/api/papers/', { method: 'OPTIONS' })).headers['Content-Type']).toBe('application/json');
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await call('/api/papers/a/');
    const head = await call('/api/papers/a/', { method: 'HEAD' });
    expect(head.body).toBeNull();
    expect(head.headers).toEqual(get.headers);
  });

  it('tags HTML and JSON differently and answers 304 with the HTML type', async () => {
    const html = await call('/api/papers/');
    const json = await call('/api/papers/', { accept: 'application/json' });
    expect(html.headers.ETag).toBeDefined();
    expect(html.headers.ETag).not.toBe(json.headers.ETag);
    const again = await call('/api/papers/', { headers: { 'if-none-match': html.headers.ETag! } });
    expect(again).toMatchObject({ status: 304, body: null });
    expect(again.headers['Content-Type']).toBe(HTML_CONTENT_TYPE);
  });

  it('links the raw JSON of the same request', async () => {
    const page = await call('/api/papers/?q=alpha&items_per_page=1');
    expect(page.body).toContain('href="http://h/api/papers/?format=json&amp;items_per_page=1&amp;q=alpha"');
    const paper = await call('/api/papers/a/?x=1');
    expect(paper.body).toContain('href="http://h/api/papers/a/?format=json&amp;x=1"');
  });
});
