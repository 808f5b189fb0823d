import { uint32Array } from './alloc.js';
import { sortByCodes } from './code-sort.js';
import type { Vocabulary } from './vocabulary.js';

/** Word numbers of `vocabulary` ordered by each word read backwards: the words ending with a suffix are then a range. */
export function suffixOrder(vocabulary: Vocabulary): Uint32Array {
  const size = vocabulary.size;
  const starts = vocabulary.starts;
  const spans = uint32Array(2 * size);
  const order = uint32Array(size);
  for (let w = 0; w < size; w++) {
    spans[2 * w] = starts[w]!;
    spans[2 * w + 1] = starts[w + 1]! - starts[w]!;
    order[w] = w;
  }
  sortByCodes(order, vocabulary.chars, spans, true);
  return order;
}
