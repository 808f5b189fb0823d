import { titleSortKey } from '../ordering/title-sort-key.js';

let codes = new Uint16Array(1024);

/**
 * `titleSortKey(title)`, computed without regular expressions for ASCII titles (letters and
 * digits lower-cased, then U+0001 and the title). Other titles use `titleSortKey` itself.
 */
export function titleKey(title: string): string {
  if (codes.length < title.length) codes = new Uint16Array(title.length * 2);
  let k = 0;
  for (let i = 0; i < title.length; i++) {
    const c = title.charCodeAt(i);
    if (c >= 128) return titleSortKey(title);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) codes[k++] = c;
    else if (c >= 65 && c <= 90) codes[k++] = c + 32;
  }
  let letters = '';
  for (let i = 0; i < k; i += 4096) letters += String.fromCharCode.apply(null, codes.subarray(i, Math.min(k, i + 4096)) as unknown as number[]);
  return `${letters}\u0001${title}`;
}
