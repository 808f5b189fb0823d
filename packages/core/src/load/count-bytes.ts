/** Passes chunks through as bytes (strings become UTF-8) and adds their sizes to `counter.bytes`. */
export async function* countBytes(
  source: AsyncIterable<Uint8Array | string>,
  counter: { bytes: number },
): AsyncGenerator<Uint8Array, void, undefined> {
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    counter.bytes += bytes.byteLength;
    yield bytes;
  }
}
