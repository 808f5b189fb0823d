import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifNoneMatchForVariant, negotiateEncoding, variantEtag } from '../src/server/compression.js';
import { killLeftovers, servedUrl, startCli, type CliProcess } from './helpers.js';

/** A raw GET (no automatic decompression), answering status, headers and body bytes. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('negotiateEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP ; Q=0.8', 'gzip'],
  ] as const)('%j → %j', (header, want) => {
    expect(negotiateEncoding(header)).toBe(want);
  });

  it('names and strips the coded variants of an ETag', () => {
    expect(variantEtag('"abc"', 'gzip')).toBe('"abc-gzip"');
    expect(variantEtag('W/"abc"', 'br')).toBe('W/"abc-br"');
  });

  it("gives the handler only the tags of the variant the request will get", () => {
    const header = '"abc-gzip", W/"def-br", "ghi"';
    expect(ifNoneMatchForVariant(header, 'gzip')).toBe('"abc"');
    expect(ifNoneMatchForVariant(header, 'br')).toBe('W/"def"');
    expect(ifNoneMatchForVariant(header, null)).toBe('"ghi"');
    expect(ifNoneMatchForVariant('"abc-gzip"', 'br')).toBeUndefined();
    expect(ifNoneMatchForVariant(' * ', 'gzip')).toBe(' * ');
  });
});

describe('paperlist serve: compression and CORS', () => {
  let cli: CliProcess;
  let url: string;
  beforeAll(async () => {
    cli = startCli(['serve', '--port', '0', '--workers', '1', '--cors', 'https://app.example.org']);
    await cli.waitFor(/serving 4,000 papers/);
    url = `${servedUrl(cli)}?q=learning&ordering=-published`;
  });
  afterAll(() => killLeftovers());

  it('compresses JSON by Accept-Encoding (gzip, br), with Vary and an ETag per coding, and 304 for that ETag', async () => {
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/Accept-Encoding/);
    const etag = plain.headers['etag'] as string;
    for (const [coding, decode] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
      const coded = await get(url, { 'Accept-Encoding': coding });
      expect(coded.status).toBe(200);
      expect(coded.headers['content-encoding']).toBe(coding);
      expect(coded.headers['vary']).toMatch(/Accept-Encoding/);
      expect(Number(coded.headers['content-length'])).toBe(coded.body.byteLength);
      expect(coded.body.byteLength).toBeLessThan(plain.body.byteLength / 2);
      expect(decode(coded.body).equals(plain.body)).toBe(true);
      expect(coded.headers['etag']).toBe(variantEtag(etag, coding));
      const again = await get(url, { 'Accept-Encoding': coding, 'If-None-Match': coded.headers['etag'] as string });
      expect(again.status).toBe(304);
      expect(again.headers['etag']).toBe(coded.headers['etag']);
    }
    // The plain tag still matches a plain request.
    expect((await get(url, { 'If-None-Match': etag })).status).toBe(304);
    // A tag confirms only the variant it names: a client holding gzip that now takes br, or
    // nothing coded, gets the body it asked for rather than a 304 for a body it cannot use.
    const gzipTag = variantEtag(etag, 'gzip');
    const other = await get(url, { 'Accept-Encoding': 'br', 'If-None-Match': gzipTag });
    expect([other.status, other.headers['content-encoding']]).toEqual([200, 'br']);
    expect((await get(url, { 'If-None-Match': gzipTag })).status).toBe(200);
    expect((await get(url, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag })).status).toBe(200);
  });

  it('compresses the export as it streams', async () => {
    const list = url.slice(0, url.indexOf('?'));
    const plain = await get(`${list}?ordering=id&format=jsonl`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('application/x-ndjson');
    expect(plain.body.toString('utf8').split('\n')).toHaveLength(4001);
    for (const [coding, decode] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
      const coded = await get(`${list}?ordering=id&format=jsonl`, { 'accept-encoding': coding });
      expect(coded.headers['content-encoding']).toBe(coding);
      expect(coded.headers['content-length']).toBeUndefined();
      expect(decode(coded.body).equals(plain.body)).toBe(true);
      expect(coded.body.length).toBeLessThan(plain.body.length / 2);
    }
  });

  it('compresses the HTML view too', async () => {
    const html = await get(url, { Accept: 'text/html', 'Accept-Encoding': 'gzip' });
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(html.body).toString('utf8')).toMatch(/<html/i);
  });

  it('lets an allowed origin read (answers and preflights), and no other', async () => {
    const allowed = await get(url, { Origin: 'https://app.example.org' });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.org');
    expect(allowed.headers['access-control-expose-headers']).toMatch(/ETag/);
    expect(allowed.headers['vary']).toMatch(/Origin/);
    expect(allowed.headers['vary']).toMatch(/Accept-Encoding/);

    const other = await get(url, { Origin: 'https://evil.example' });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await get(url, { Origin: 'https://app.example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(preflight.headers['access-control-allow-headers']).toBe('if-none-match');

    const health = await get(new URL('/healthz', url).href, { Origin: 'https://app.example.org' });
    expect(health.headers['access-control-allow-origin']).toBe('https://app.example.org');
  });
});

describe('paperlist serve --no-compression, without --cors', () => {
  afterAll(() => killLeftovers());

  it('sends answers as they are and no CORS headers', async () => {
    const plainCli = startCli(['serve', '--port', '0', '--workers', '1', '--no-compression']);
    await plainCli.waitFor(/serving 4,000 papers/);
    const answer = await get(`${servedUrl(plainCli)}?q=learning`, { 'Accept-Encoding': 'gzip, br', Origin: 'https://app.example.org' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(answer.body.toString('utf8')).count).toBeGreaterThan(0);
  });
});
