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
 * is passed, reading stops: a Node request stream is left as it is (Node discards the rest once the
 * answer is written; destroying it would cut the connection before the `413`).
 */
export async function readBody(body: PapersRequestBody | undefined, options: { maxBytes: number; gzip: boolean }): Promise<BodyResult> {
  if (body === undefined) return { ok: true, bytes: new Uint8Array(0) };
  let stream = rawStream(body, options.maxBytes);
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
        return { ok: false, problem: 'too-large' };
      }
      chunks.push(next.value);
    }
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, problem: 'too-large' };
    if (options.gzip) return { ok: false, problem: 'bad-gzip' };
    throw error;
  }
  return { ok: true, bytes: concat(chunks, length) };
}

/** The body as a stream of at most `maxBytes` bytes (errored with `TooLarge` past it). */
function rawStream(body: PapersRequestBody, maxBytes: number): ReadableStream<Uint8Array> {
  const next = chunkReader(body);
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

/** A function giving the body's next chunk, `null` at the end. */
function chunkReader(body: PapersRequestBody): () => Promise<Uint8Array | null> {
  if (body instanceof Uint8Array) {
    let done = false;
    return async () => {
      if (done) return null;
      done = true;
      return body;
    };
  }
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    return async () => {
      const result = await reader.read();
      return result.done ? null : result.value;
    };
  }
  // Not `for await`: leaving the loop early would call `return()`, which destroys a Node request.
  const iterator = (body as AsyncIterable<Uint8Array | string>)[Symbol.asyncIterator]();
  return async () => {
    const result = await iterator.next();
    if (result.done === true) return null;
    return typeof result.value === 'string' ? utf8.encode(result.value) : result.value;
  };
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
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
