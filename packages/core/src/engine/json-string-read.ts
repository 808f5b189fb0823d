/**
 * Reading JSON string literals in place, in a stored paper's bytes: where one ends, and its
 * value. A module of its own (no imports) so that `EncodedPaper` can read a paper's id lazily
 * without importing the paper store.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const utf8 = new TextDecoder();

/** End (exclusive, after the closing quote) of the JSON string starting at `from`. */
export function stringEnd(json: Uint8Array, from: number): number {
  let i = from + 1;
  for (;;) {
    const b = json[i]!;
    if (b === QUOTE) return i + 1;
    i += b === BACKSLASH ? 2 : 1;
  }
}

/** The string value of the JSON string literal at `from`. */
export function readJsonString(json: Uint8Array, from: number): string {
  const end = stringEnd(json, from);
  let plain = true;
  for (let i = from + 1; i < end - 1; i++) {
    const b = json[i]!;
    if (b >= 0x80 || b === BACKSLASH) {
      plain = false;
      break;
    }
  }
  if (plain) return String.fromCharCode.apply(null, json.subarray(from + 1, end - 1) as unknown as number[]);
  return JSON.parse(utf8.decode(json.subarray(from, end))) as string;
}
