import { isJsonWhitespace } from './json-whitespace.js';

/** The two catalogue layouts: one JSON array of records, or JSON Lines. */
export type CatalogFormat = 'json-array' | 'json-lines';

/**
 * The format announced by the first non-whitespace character of the decoded text (a BOM is already
 * gone): `[` means a JSON array, anything else JSON Lines. `undefined` while `text` is all whitespace.
 */
export function detectFormat(text: string): CatalogFormat | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isJsonWhitespace(code)) return code === 0x5b ? 'json-array' : 'json-lines';
  }
  return undefined;
}
