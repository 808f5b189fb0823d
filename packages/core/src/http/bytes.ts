/** Byte helpers shared by the answers and the request-body readers (no HTTP knowledge here). */

/** Joins byte chunks into one array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * `head`, `middle` and `tail` as one array written in `middle`'s own buffer, around it, when the
 * buffer has room for them there; else null. Only for a `middle` whose buffer is the caller's
 * alone (the bytes around the view are overwritten).
 */
export function joinAround(head: Uint8Array, middle: Uint8Array, tail: Uint8Array): Uint8Array | null {
  const start = middle.byteOffset - head.byteLength;
  const end = middle.byteOffset + middle.byteLength + tail.byteLength;
  if (start < 0 || end > middle.buffer.byteLength) return null;
  const whole = new Uint8Array(middle.buffer, start, end - start);
  whole.set(head, 0);
  whole.set(tail, head.byteLength + middle.byteLength);
  return whole;
}
