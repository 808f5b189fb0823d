import { uint32Array } from './alloc.js';

/** Word numbers (of the sorted vocabulary `words`) ordered by each word read backwards. */
export function suffixOrder(words: readonly string[]): Uint32Array {
  const reversed = words.map((word, w) => ({ key: reverse(word), w }));
  reversed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const order = uint32Array(words.length);
  for (let i = 0; i < reversed.length; i++) order[i] = reversed[i]!.w;
  return order;
}

function reverse(word: string): string {
  let out = '';
  for (let i = word.length - 1; i >= 0; i--) out += word[i];
  return out;
}
