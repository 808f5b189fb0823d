import { concatBytes } from '../bytes.js';

/**
 * A request's body as an adapter hands it to the core: bytes already read, or a stream the core
 * reads only when it needs the body (a write), and stops reading past the size limit. A Node
 * `IncomingMessage` is an `AsyncIterable<Buffer>`; a fetch `Request.body` is a `ReadableStream`.
 */
export type PapersRequestBody = Uint8Array | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/** Why a body could not be read. */
export type BodyProblem = 'too-large' | 'bad-gzip';

/** Result of {@link readBody}: the bytes (decompressed), or why not. */
export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false; problem: BodyProblem };

class TooLarge extends Error {}

const utf8 = new TextEncoder();

/**
 * Reads a body up to `maxBytes`, counted on the bytes received and, with `gzip`, again on the
 * decompressed bytes (a small gzip bomb is stopped as soon as it expands past the limit). Gzip
 * goes through the standard `DecompressionStream` (Node 18+, browsers, workers). When the limit
 * is passed, a stream is cancelled; an async iterable (a Node request) is read on to its end in
 * the background and discarded, as Node and body-parser do, so the `413` reaches the client
 * (closing a socket with unread data would reset the connection under the answer).
 */
export async function readBody(body: PapersRequestBody | undefined, options: { maxBytes: number; gzip: boolean }): Promise<BodyResult> {
  if (body === undefined) return { ok: true, bytes: new Uint8Array(0) };
  const source = chunkReader(body);
  let stream = rawStream(source.next, options.maxBytes);
  if (options.gzip) stream = stream.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      length += next.value.byteLength;
      if (length > options.maxBytes) {
        void reader.cancel().catch(() => {});
        source.discard();
        return { ok: false, problem: 'too-large' };
      }
      chunks.push(next.value);
    }
  } catch (error) {
    if (error instanceof TooLarge) {
      source.discard();
      return { ok: false, problem: 'too-large' };
    }
    if (options.gzip) return { ok: false, problem: 'bad-gzip' };
    throw error;
  }
  return { ok: true, bytes: chunks.length === 1 ? chunks[0]! : concatBytes(chunks) };
}

/** The body as a stream of at most `maxBytes` bytes (errored with `TooLarge` past it). */
function rawStream(next: () => Promise<Uint8Array | null>, maxBytes: number): ReadableStream<Uint8Array> {
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await next();
      if (chunk === null) return controller.close();
      received += chunk.byteLength;
      if (received > maxBytes) return controller.error(new TooLarge());
      controller.enqueue(chunk);
    },
  });
}

/** The body's chunks one by one (`null` at the end), and how to throw away the rest. */
interface ChunkReader {
  next: () => Promise<Uint8Array | null>;
  discard: () => void;
}

function chunkReader(body: PapersRequestBody): ChunkReader {
  if (body instanceof Uint8Array) {
    let done = false;
    const next = async () => {
      if (done) return null;
      done = true;
      return body;
    };
    return { next, discard: () => {} };
  }
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    const next = async () => {
      const result = await reader.read();
      return result.done ? null : result.value;
    };
    return { next, discard: () => void reader.cancel().catch(() => {}) };
  }
  // Not `for await`: leaving the loop early would call `return()`, which destroys a Node request.
  const iterator = (body as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  const next = async () => {
    const result = await iterator.next();
    if (result.done === true) return null;
    return typeof result.value === 'string' ? utf8.encode(result.value) : result.value;
  };
  const discard = async () => {
    while ((await next()) !== null);
  };
  return { next, discard: () => void discard().catch(() => {}) };
}


/** The media type of a `Content-Type` value, lower-cased, without parameters (`''` when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Whether the body is gzip (`Content-Encoding: gzip` or `x-gzip`), plain (absent or `identity`),
 * or in an encoding the API does not read (`null`).
 */
export function bodyEncoding(contentEncoding: string | undefined): 'gzip' | 'identity' | null {
  const codings = (contentEncoding ?? '').split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return 'identity';
  if (codings.length === 1 && (codings[0] === 'gzip' || codings[0] === 'x-gzip')) return 'gzip';
  return null;
}
