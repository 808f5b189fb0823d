import { foldText } from './fold-text.js';

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a text: maximal runs of Unicode letters and digits after {@link foldText}.
 * Everything else (spaces, punctuation, `_`, `-`, `$`, `\`) separates words.
 *
 * @example textWords('GPT-4: Naïve_Bayes') // ['gpt', '4', 'naive', 'bayes']
 */
export function textWords(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

/** The letters and digits of a folded text, with everything between them removed. */
export function lettersAndDigits(folded: string): string {
  return (folded.match(WORD) ?? []).join('');
}
