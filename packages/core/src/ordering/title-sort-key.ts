import { foldText } from '../text/fold-text.js';
import { lettersAndDigits } from '../text/words.js';

/**
 * The catalogue's title collation as one string: comparing two keys by code point (as
 * {@link compareCodePoints} does, or PostgreSQL with `COLLATE "C"`) orders titles by their
 * folded letters and digits first (case, accents, spaces and punctuation ignored), and by
 * the full titles' code points where those are equal.
 *
 * The two parts are joined by U+0001, which sorts below every letter and digit, so a title
 * whose letters are a prefix of another's sorts first. PostgreSQL text cannot hold U+0000.
 *
 * @example titleSortKey('The $\\alpha$-Model') === 'thealphamodel\u0001The $\\alpha$-Model'
 */
export function titleSortKey(title: string): string {
  return `${lettersAndDigits(foldText(title))}\u0001${title}`;
}

/**
 * Compares two strings by Unicode code point, not by UTF-16 code unit as `<` does: the two
 * differ when a character outside the BMP meets one in U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

// Moves surrogates above U+E000..U+FFFF so unit order becomes code point order.
function codePointOrder(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
