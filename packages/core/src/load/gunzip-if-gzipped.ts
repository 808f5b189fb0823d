import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/** Passes the bytes through, gunzipped when they start with the gzip magic bytes `1f 8b`. */
export async function* gunzipIfGzipped(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let exhausted = false;
  try {
    while (headBytes < 2) {
      const next = await iterator.next();
      if (next.done === true) {
        exhausted = true;
        break;
      }
      if (next.value.byteLength === 0) continue;
      head.push(next.value);
      headBytes += next.value.byteLength;
    }
  } catch (error) {
    exhausted = true;
    throw error;
  } finally {
    if (!exhausted && headBytes < 2) await iterator.return?.();
  }
  const all = exhausted ? head : prepend(head, iterator);
  if (startsWithGzipMagic(head)) yield* gunzip(all);
  else yield* all;
}

function startsWithGzipMagic(head: readonly Uint8Array[]): boolean {
  const first = head[0];
  if (first === undefined) return false;
  const second = first.byteLength > 1 ? first[1] : head[1]?.[0];
  return first[0] === GZIP_MAGIC_0 && second === GZIP_MAGIC_1;
}

/** The chunks already read, then the rest of `iterator`, which is closed if the consumer stops early. */
async function* prepend(
  head: readonly Uint8Array[],
  iterator: AsyncIterator<Uint8Array>,
): AsyncGenerator<Uint8Array, void, undefined> {
  let finished = false;
  try {
    for (const chunk of head) yield chunk;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } catch (error) {
    finished = true;
    throw error;
  } finally {
    if (!finished) await iterator.return?.();
  }
}

async function* gunzip(source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  const inflater = createGunzip({ chunkSize: 128 * 1024 });
  // Errors of the source or of zlib destroy `inflater`, so they surface from the loop below.
  const feeding = pipeline(source, inflater);
  feeding.catch(() => {});
  let finished = false;
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
    await feeding;
    finished = true;
  } finally {
    if (!finished) inflater.destroy();
  }
}
