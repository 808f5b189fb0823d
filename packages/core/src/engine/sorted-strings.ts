import { uint32Array, uint8Array } from './alloc.js';

/**
 * Distinct strings sorted by UTF-16 code unit (JavaScript's default sort), stored as bytes:
 * the author names and the values of the exact filters (`proceeding`, venues, tasks, methods).
 *
 * Why bytes: names are mostly Latin letters, so one byte per character instead of the two of a
 * `Uint16Array` (7 MB of the index at 498k papers). The encoding is UTF-8, generalised to keep a
 * lone surrogate as its own three bytes (WTF-8), so every JavaScript string comes back exactly.
 * Comparisons decode back to UTF-16 code units, so the order stays the strings' own.
 */
export class SortedStrings {
  constructor(
    /** The strings' bytes, end to end, in sorted order. */
    readonly bytes: Uint8Array,
    /** Where string `i` starts in `bytes`; `starts[size]` is the end. */
    readonly starts: Uint32Array,
  ) {}

  /** The table of already sorted, distinct strings. */
  static fromSorted(strings: readonly string[]): SortedStrings {
    let total = 0;
    for (const s of strings) total += encodedLength(s);
    const bytes = uint8Array(total);
    const starts = uint32Array(strings.length + 1);
    let at = 0;
    for (let i = 0; i < strings.length; i++) {
      starts[i] = at;
      at = encodeInto(strings[i]!, bytes, at);
    }
    starts[strings.length] = at;
    return new SortedStrings(bytes, starts);
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** String number `i`. */
  get(i: number): string {
    const bytes = this.bytes;
    const to = this.starts[i + 1]!;
    const units: number[] = [];
    for (let p = this.starts[i]!; p < to; ) {
      const b = bytes[p]!;
      if (b < 0x80) {
        units.push(b);
        p += 1;
      } else if (b < 0xe0) {
        units.push(((b & 0x1f) << 6) | (bytes[p + 1]! & 0x3f));
        p += 2;
      } else if (b < 0xf0) {
        units.push(((b & 0x0f) << 12) | ((bytes[p + 1]! & 0x3f) << 6) | (bytes[p + 2]! & 0x3f));
        p += 3;
      } else {
        const c = (((b & 0x07) << 18) | ((bytes[p + 1]! & 0x3f) << 12) | ((bytes[p + 2]! & 0x3f) << 6) | (bytes[p + 3]! & 0x3f)) - 0x10000;
        units.push(0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
        p += 4;
      }
    }
    let text = '';
    for (let k = 0; k < units.length; k += 4096) text += String.fromCharCode.apply(null, units.slice(k, k + 4096));
    return text;
  }

  /** The number of `key`, or -1 when it is not in the table. */
  find(key: string): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(mid, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.size && this.compare(lo, key) === 0 ? lo : -1;
  }

  /** String `i` against `key` in UTF-16 code unit order: negative, 0 or positive. */
  private compare(i: number, key: string): number {
    const bytes = this.bytes;
    const to = this.starts[i + 1]!;
    let k = 0;
    for (let p = this.starts[i]!; p < to; ) {
      const b = bytes[p]!;
      let unit: number;
      let low = -1;
      if (b < 0x80) {
        unit = b;
        p += 1;
      } else if (b < 0xe0) {
        unit = ((b & 0x1f) << 6) | (bytes[p + 1]! & 0x3f);
        p += 2;
      } else if (b < 0xf0) {
        unit = ((b & 0x0f) << 12) | ((bytes[p + 1]! & 0x3f) << 6) | (bytes[p + 2]! & 0x3f);
        p += 3;
      } else {
        const c = (((b & 0x07) << 18) | ((bytes[p + 1]! & 0x3f) << 12) | ((bytes[p + 2]! & 0x3f) << 6) | (bytes[p + 3]! & 0x3f)) - 0x10000;
        unit = 0xd800 + (c >> 10);
        low = 0xdc00 + (c & 0x3ff);
        p += 4;
      }
      if (k === key.length) return 1;
      const d = unit - key.charCodeAt(k++);
      if (d !== 0) return d;
      if (low >= 0) {
        if (k === key.length) return 1;
        const e = low - key.charCodeAt(k++);
        if (e !== 0) return e;
      }
    }
    return k === key.length ? 0 : -1;
  }
}

/** Bytes of `s` in WTF-8 (UTF-8, a lone surrogate as three bytes). */
function encodedLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && isLowSurrogate(s.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Writes `s` in WTF-8 at `at`; returns the end. */
function encodeInto(s: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c < 0xdc00 && isLowSurrogate(s.charCodeAt(i + 1))) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[at++] = 0xf0 | (cp >> 18);
      out[at++] = 0x80 | ((cp >> 12) & 0x3f);
      out[at++] = 0x80 | ((cp >> 6) & 0x3f);
      out[at++] = 0x80 | (cp & 0x3f);
    } else {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c < 0xe000;
}
