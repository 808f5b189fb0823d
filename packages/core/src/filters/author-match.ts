/**
 * The reference meaning of `author=`: every word must be a word of one author name, the last
 * as a prefix (the words folded as `q` folds them, see `textWords`).
 */

/**
 * Whether one author name (its folded words) holds every word: each word but the last equal
 * to one of its words, the last the start of one. Words need not be in order or distinct from
 * each other: `neubig graham` and `graham neubig` both find Graham Neubig.
 *
 * @example nameHasWords(['graham', 'neubig'], ['neubig', 'gra']) // true
 */
export function nameHasWords(nameWords: readonly string[], words: readonly string[]): boolean {
  const last = words.length - 1;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const found = i === last ? nameWords.some((w) => w.startsWith(word)) : nameWords.includes(word);
    if (!found) return false;
  }
  return true;
}

/** Whether any alternative's words are all in one of the names (each name as folded words). */
export function authorsMatch(names: readonly (readonly string[])[], alternatives: readonly (readonly string[])[]): boolean {
  return alternatives.some((words) => names.some((name) => nameHasWords(name, words)));
}
