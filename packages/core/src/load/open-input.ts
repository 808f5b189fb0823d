import { createReadStream } from 'node:fs';
import type { PaperInput } from './types.js';

/** The bytes of an input and, when it is a file, its path. */
export interface OpenedInput {
  chunks: AsyncIterable<Uint8Array | string>;
  file: string | undefined;
}

const FILE_CHUNK_BYTES = 256 * 1024;

/** Turns a path, a `Readable` or an async iterable into a stream of chunks; files are opened lazily, on first read. */
export function openInput(input: PaperInput, signal?: AbortSignal): OpenedInput {
  if (typeof input === 'string') {
    const options = signal === undefined ? { highWaterMark: FILE_CHUNK_BYTES } : { highWaterMark: FILE_CHUNK_BYTES, signal };
    return { chunks: createReadStream(input, options), file: input };
  }
  return { chunks: input, file: inputFile(input) };
}

/** The path of an input that is a file (a path, or an `fs.ReadStream`, which knows its path). */
export function inputFile(input: PaperInput): string | undefined {
  if (typeof input === 'string') return input;
  const path: unknown = (input as { path?: unknown }).path;
  return typeof path === 'string' ? path : undefined;
}
