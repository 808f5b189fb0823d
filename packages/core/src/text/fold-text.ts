const COMBINING_MARKS = /\p{M}+/gu;
// Cheap test that lets pure-ASCII text skip normalization, by far the common case.
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Folds text for matching and collation: NFKD, lower case, combining marks dropped.
 * Letters without a decomposition (`ł`, `ß`) stay as they are.
 *
 * @example foldText('Schrödinger’s Ǆ') === 'schrodinger’s dž'
 */
export function foldText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').toLowerCase().replace(COMBINING_MARKS, '');
}
