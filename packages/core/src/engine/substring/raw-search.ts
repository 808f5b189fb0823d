/**
 * Case-insensitive search of an ASCII needle in the JSON string of an ASCII field, on the
 * stored bytes themselves: no decoding. The native `indexOf` finds the end of the string and
 * the candidates (the needle's rarest byte, in both cases); each candidate is compared with
 * ASCII case folding, and refused when it starts inside an escape sequence (`\n`, `\u001f`),
 * whose letters are not text. Only needles holding a character JSON escapes (a quote, a
 * backslash, a control character) cannot be found this way: {@link canSearchRaw} says so.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Node's `Buffer`, where there is one. Its `indexOf(byte)` is `memchr`; a plain `Uint8Array`'s is
 * the generic typed-array search, about 1 ns a byte here: finding the end of an abstract that
 * way was a third of the time of reading abstracts for a short needle (`abstract=e%2C`).
 */
const NativeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** A `Buffer` over each store chunk searched (the same memory, made once per chunk). */
const chunkViews = new WeakMap<Uint8Array, Uint8Array>();

/** `json` as a `Buffer` over the same memory (kept for the next call), or `json` itself without `Buffer`. */
function searchable(json: Uint8Array): Uint8Array {
  if (NativeBuffer === undefined || NativeBuffer.isBuffer(json)) return json;
  let view = chunkViews.get(json);
  if (view === undefined) chunkViews.set(json, (view = NativeBuffer.from(json.buffer, json.byteOffset, json.byteLength)));
  return view;
}

/**
 * Rough frequency rank of bytes in English scientific text (higher: more frequent), used to
 * pick the needle's rarest byte as the one to look for.
 */
const FREQUENCY = new Uint8Array(128);
' etaoinsrhldcumfpgwybvkxjqz'.split('').forEach((c, i) => (FREQUENCY[c.charCodeAt(0)] = 200 - i * 6));
'0123456789'.split('').forEach((c) => (FREQUENCY[c.charCodeAt(0)] = 40));
for (const c of ',.-()') FREQUENCY[c.charCodeAt(0)] = 90;

/** Whether `needle` (lower-case ASCII bytes) holds no character that JSON strings escape. */
export function canSearchRaw(needle: Uint8Array): boolean {
  for (let i = 0; i < needle.length; i++) {
    const b = needle[i]!;
    if (b < 0x20 || b === QUOTE || b === BACKSLASH || b >= 0x80) return false;
  }
  return needle.length > 0;
}

/** A prepared needle: its bytes and which of them to look for. */
export interface RawNeedle {
  bytes: Uint8Array;
  /** Index of the byte searched for. */
  pivot: number;
  /** That byte, lower case, and its upper case (or -1 when it has none). */
  lower: number;
  upper: number;
}

export function prepareRawNeedle(needle: Uint8Array): RawNeedle {
  let pivot = 0;
  for (let j = 1; j < needle.length; j++) if (FREQUENCY[needle[j]!]! < FREQUENCY[needle[pivot]!]!) pivot = j;
  const lower = needle[pivot]!;
  return { bytes: needle, pivot, lower, upper: lower >= 97 && lower <= 122 ? lower - 32 : -1 };
}

/**
 * Whether the JSON string starting (at its opening quote) at `from` in `json` holds the
 * needle, ignoring ASCII case. The string must hold ASCII text only, or text without the two
 * characters whose lower case is ASCII (see {@link rawContainsAnyText}): the bytes of UTF-8
 * sequences are all above 0x7f and never match the needle's.
 */
export function rawContains(json: Uint8Array, from: number, needle: RawNeedle): boolean {
  // A view of the string's content: the native searches must stop at its end, not run through the chunk.
  const chunk = searchable(json);
  return searchText(chunk.subarray(from + 1, closingQuote(chunk, from)), needle);
}

/** Longest string {@link rawContainsShort} reads itself. */
const SHORT = 320;

/**
 * {@link rawContains} for a short string (a title), in one pass of plain reads; undefined when
 * the string is longer than a few hundred bytes or holds an escape (then use `rawContains`).
 * Reading a title this way costs about a third of finding its end, making a view and
 * searching it with the native `indexOf` calls: each is cheap, but there are several per title
 * and a title is some 80 bytes.
 */
export function rawContainsShort(json: Uint8Array, from: number, needle: RawNeedle): boolean | undefined {
  const bytes = needle.bytes;
  const m = bytes.length;
  const first = bytes[0]!;
  const limit = Math.min(json.length, from + 1 + SHORT);
  for (let i = from + 1; i < limit; i++) {
    let c = json[i]!;
    if (c === QUOTE) return false;
    if (c === BACKSLASH) return undefined;
    if (c >= 65 && c <= 90) c += 32;
    // The needle holds neither a quote nor a backslash: a match ends before either, so it is
    // text, not part of an escape that comes later.
    if (c === first && matchesAt(json, i, bytes)) return true;
  }
  return undefined;
}

/**
 * {@link rawContains} for a string that may hold any text, or null when it cannot tell. The
 * bytes of a UTF-8 sequence are all above 0x7f, so an ASCII needle only ever matches ASCII
 * characters; what lower-casing adds is two characters whose lower case is ASCII: `İ`
 * (U+0130, to `i̇`) and the Kelvin sign (U+212A, to `k`). A text holding either is not
 * searched here (null: decode it). `dottedI`: false when the caller knows the text holds no `İ`.
 */
export function rawContainsAnyText(json: Uint8Array, from: number, needle: RawNeedle, dottedI = true): boolean | null {
  const chunk = searchable(json);
  const text = chunk.subarray(from + 1, closingQuote(chunk, from));
  if ((dottedI && holdsDottedI(text)) || holdsKelvin(text)) return null;
  return searchText(text, needle);
}

/** Whether `text` holds `İ` (C4 B0). */
function holdsDottedI(text: Uint8Array): boolean {
  for (let i = text.indexOf(0xc4); i >= 0; i = text.indexOf(0xc4, i + 1)) if (text[i + 1] === 0xb0) return true;
  return false;
}

/**
 * Whether `text` holds the Kelvin sign (E2 84 AA), found by its last byte: E2 leads every
 * dash, quote and mathematical sign of an abstract, AA ends few characters (`ê`, mostly).
 */
function holdsKelvin(text: Uint8Array): boolean {
  for (let i = text.indexOf(0xaa, 2); i >= 0; i = text.indexOf(0xaa, i + 1)) if (text[i - 1] === 0x84 && text[i - 2] === 0xe2) return true;
  return false;
}

function searchText(text: Uint8Array, needle: RawNeedle): boolean {
  const end = text.length;
  const { bytes, pivot, lower, upper } = needle;
  const m = bytes.length;
  let a = text.indexOf(lower, pivot);
  let b = upper < 0 ? -1 : text.indexOf(upper, pivot);
  for (;;) {
    if (a >= end) a = -1;
    if (b >= end) b = -1;
    if (a < 0 && b < 0) return false;
    const hit = a < 0 ? b : b < 0 ? a : Math.min(a, b);
    const at = hit - pivot;
    if (at + m <= end && matchesAt(text, at, bytes) && !insideEscape(text, 0, at)) return true;
    if (hit === a) a = text.indexOf(lower, a + 1);
    else b = text.indexOf(upper, b + 1);
  }
}

/** The index of the quote closing the JSON string opened at `from`. */
function closingQuote(json: Uint8Array, from: number): number {
  let i = json.indexOf(QUOTE, from + 1);
  while (i > 0 && escaped(json, from + 1, i)) i = json.indexOf(QUOTE, i + 1);
  return i;
}

function matchesAt(json: Uint8Array, at: number, needle: Uint8Array): boolean {
  for (let j = 0; j < needle.length; j++) {
    let c = json[at + j]!;
    if (c >= 65 && c <= 90) c += 32;
    if (c !== needle[j]) return false;
  }
  return true;
}

/** Whether the byte at `i` is preceded by an odd run of backslashes (it is escaped). */
function escaped(json: Uint8Array, start: number, i: number): boolean {
  let k = i - 1;
  while (k >= start && json[k] === BACKSLASH) k--;
  return ((i - 1 - k) & 1) === 1;
}

/** Whether position `at` is inside an escape sequence: `\x` or `\uXXXX` (not text of its own). */
function insideEscape(json: Uint8Array, start: number, at: number): boolean {
  if (at > start && escaped(json, start, at)) return true;
  // \uXXXX: `at` is one of the four hex digits.
  for (let k = 1; k <= 4 && at - k - 1 >= start; k++) {
    if (json[at - k] === 0x75 && escaped(json, start, at - k)) return true;
  }
  return false;
}
