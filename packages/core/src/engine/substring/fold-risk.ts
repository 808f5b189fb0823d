import { uint32Array } from '../alloc.js';
import { bitsetWords } from '../bits.js';
import { foldText } from '../../text/fold-text.js';
import type { FieldText } from './field-text.js';

/** Each non-ASCII code point's folded form, per field table (computed on first use). */
const foldedForms = new WeakMap<Uint32Array, string[]>();

/**
 * The documents (a bitset) whose field holds a code point that could make a word of the index
 * hold `run` where the lower-cased text does not: one that folds to nothing (a combining mark
 * between two letters) or to text with one of `run`'s characters (`é` for `e`, `ﬁ` for `f`).
 *
 * Words are runs of the folded text, and folding works code point by code point. So in a
 * document without such code points, every character of `run` in a word comes from the same
 * ASCII character of the text, next to each other, and the lower-cased text holds `run` too:
 * there, finding `run` inside a word is the answer, and the document need not be read.
 */
export function foldRiskDocs(text: FieldText, run: string, n: number): Uint32Array {
  const { unicode, unicodeDocs } = text;
  let forms = foldedForms.get(unicode);
  if (forms === undefined) {
    forms = Array.from(unicode, (point) => foldText(String.fromCodePoint(point)));
    foldedForms.set(unicode, forms);
  }
  const bits = uint32Array(bitsetWords(n));
  for (let i = 0; i < forms.length; i++) {
    const form = forms[i]!;
    let risky = form.length === 0;
    for (let c = 0; c < form.length && !risky; c++) risky = run.includes(form[c]!);
    if (!risky) continue;
    const set = unicodeDocs.set(i);
    if (set.kind === 'bits') for (let w = 0; w < bits.length; w++) bits[w]! |= set.bits[w]!;
    else if (set.kind === 'list') for (const d of set.docs) bits[d >>> 5]! |= 1 << (d & 31);
  }
  return bits;
}
