const encoder = new TextEncoder();

/**
 * The UTF-8 bytes of `JSON.stringify(text)` without its quotes: how the text sits in a paper's
 * JSON, which the store's id and arXiv tables compare against. Ids are nearly always printable
 * ASCII that JSON leaves as it is, and then the bytes are the characters' codes: copying them
 * skips the string `JSON.stringify` makes and the encoder's call, which were most of the cost of
 * looking up a write batch's ids (several milliseconds a batch of 1,000 on the thread that
 * serves requests). Anything else (an escape, a control character, non-ASCII) goes the long way.
 */
export function jsonStringBytes(text: string): Uint8Array {
  const n = text.length;
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (!jsonKeepsAsIs(c)) return encoder.encode(JSON.stringify(text).slice(1, -1));
    bytes[i] = c;
  }
  return bytes;
}

/** Whether JSON writes UTF-16 code unit `c` as its own one byte: printable ASCII but the quote and the backslash, which it escapes. */
export function jsonKeepsAsIs(c: number): boolean {
  return c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c;
}
