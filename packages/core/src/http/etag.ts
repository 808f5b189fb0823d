/**
 * A strong entity tag for a response that depends only on the catalogue version and the
 * request (origin, path and query, representation): equal inputs give equal tags, so a
 * conditional request can be answered before the source is asked anything.
 */
export function computeEtag(version: string, parts: readonly string[]): string {
  return `"${version.replace(/[^\x21\x23-\x7e]/g, '')}-${fnv1a64([version, ...parts].join('\u0000'))}"`;
}

/** Whether an `If-None-Match` header matches a tag (weak comparison, as RFC 9110 asks for GET). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  return trimmed.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

// FNV-1a over UTF-16 code units, 64 bits kept in two 32-bit halves; hex of 16 digits.
function fnv1a64(text: string): string {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    h0 ^= text.charCodeAt(i);
    // Multiply by the FNV prime 2^40 + 0x1b3 in 16-bit limbs.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3;
    const t2 = h2 * 0x1b3 + (h0 << 8);
    const t3 = h3 * 0x1b3 + (h1 << 8);
    const c1 = t1 + (t0 >>> 16);
    const c2 = t2 + (c1 >>> 16);
    h0 = t0 & 0xffff;
    h1 = c1 & 0xffff;
    h2 = c2 & 0xffff;
    h3 = (t3 + (c2 >>> 16)) & 0xffff;
  }
  return [h3, h2, h1, h0].map((h) => h.toString(16).padStart(4, '0')).join('');
}
