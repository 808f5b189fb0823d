import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { pipeline, Readable } from 'node:stream';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import type { PapersResponse } from '@paperlist/core';

/** A content coding the server sends. */
export type Encoding = 'br' | 'gzip';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Bodies smaller than this are sent as they are, unless they carry an ETag (whose variant must not depend on size). */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|x-ndjson|vnd\.oai\.openapi\+json)|text\/)/i;

/**
 * The coding to answer with for an `Accept-Encoding` header: the one of `br` and `gzip` the client
 * weighs more (q-values, `*` included; `br` on a tie, as it is smaller), or `null` for none.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (header === undefined || header.trim() === '') return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match !== null) q = Number(match[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gz = Math.max(weight('gzip'), weights.get('x-gzip') ?? 0);
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/** The ETag of a coded variant: `"v1"` → `"v1-gzip"` (a weak tag stays weak). */
export function variantEtag(etag: string, encoding: Encoding): string {
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : `${etag}-${encoding}`;
}

/**
 * `If-None-Match` as the handler must see it for a request that will get the `encoding` variant:
 * that variant's tags lose their suffix, so the handler compares its own tags; tags of the other
 * variants are dropped, since a 304 would confirm a body in a coding the client did not ask for
 * this time. `undefined` when no tag is left.
 */
export function ifNoneMatchForVariant(ifNoneMatch: string, encoding: Encoding | null): string | undefined {
  if (ifNoneMatch.trim() === '*') return ifNoneMatch;
  const kept: string[] = [];
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim();
    const coded = /-(gzip|br)"$/.exec(tag);
    if (coded === null) {
      if (encoding === null && tag !== '') kept.push(tag);
    } else if (coded[1] === encoding) {
      kept.push(`${tag.slice(0, coded.index)}"`);
    }
  }
  return kept.length === 0 ? undefined : kept.join(', ');
}

/**
 * The answer compressed for the request's `Accept-Encoding` (JSON, HTML and other text; on a
 * zlib thread, not the event loop), with `Vary: Accept-Encoding` and a distinct ETag per coding,
 * so caches keep the variants apart and a `304` names the variant the client holds.
 */
export async function compressAnswer(answer: PapersResponse, req: IncomingMessage): Promise<PapersResponse> {
  const headers = { ...answer.headers };
  const type = headers['Content-Type'] ?? '';
  const etag = headers['ETag'];
  const compressible = COMPRESSIBLE.test(type) || (answer.status === 304 && etag !== undefined);
  if (!compressible) return answer;
  headers['Vary'] = headers['Vary'] === undefined ? 'Accept-Encoding' : `${headers['Vary']}, Accept-Encoding`;
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  const small = answer.body !== null && answer.body.byteLength < MIN_BYTES && etag === undefined;
  if (encoding === null || small) return { ...answer, headers };
  if (etag !== undefined) headers['ETag'] = variantEtag(etag, encoding);
  if (answer.stream !== undefined) {
    // An export: coded as it streams (zlib's own stream keeps the back-pressure), at the fastest
    // levels: on this project's machine brotli 4 and gzip 6 code 48 and 38 MB/s of JSON Lines, a
    // ceiling under the export's own speed; brotli 1 codes 177 MB/s (to 29% of the size, against
    // 24%), gzip 1 91 MB/s (32%, against 28%).
    headers['Content-Encoding'] = encoding;
    delete headers['Content-Length'];
    const coder = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }) : createGzip({ level: 1 });
    // pipeline: a client going away (the coder destroyed) stops the export too.
    const coded = pipeline(Readable.from(answer.stream, { objectMode: false }), coder, () => {});
    return { ...answer, headers, stream: coded as AsyncIterable<Uint8Array> };
  }
  if (answer.body === null) {
    // HEAD and 304: the headers of the coded variant, without its length (unknown without coding it).
    if (answer.status !== 304) {
      headers['Content-Encoding'] = encoding;
      delete headers['Content-Length'];
    }
    return { ...answer, headers };
  }
  const body =
    encoding === 'br'
      ? await brotliAsync(answer.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: answer.body.byteLength } })
      : await gzipAsync(answer.body, { level: 6 });
  headers['Content-Encoding'] = encoding;
  headers['Content-Length'] = String(body.byteLength);
  return { ...answer, headers, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
}
