import { nameHasWords, textWords } from '@paperlist/core';
import type { FacetFacts } from './facet-facts.js';
import { intersect } from './posting-query.js';
import type { TermPostings } from './term-postings.js';
import { MAX_DICTIONARY_WORD } from './text-columns.js';
import { isUnstorable } from './unstorable-text.js';

/** Candidates verified between two turns of the event loop. */
const YIELD_EVERY = 20_000;

/**
 * Whether the posting lists can answer `author=` alternatives: every word whole in the dictionary
 * and storable (a word PostgreSQL cannot hold finds nothing, answered in SQL without a statement).
 */
export function authorFilterAnswerable(alternatives: readonly (readonly string[])[]): boolean {
  return alternatives.every((words) => words.length > 0 && words.every((word) => word.length < MAX_DICTIONARY_WORD && !isUnstorable(word)));
}

/**
 * The papers `author=` finds (the core's `authorsMatch`: every word of one alternative in one
 * author name, the last as a prefix), ascending. The lists give the candidates: papers whose
 * authors hold each word (whole, the last as a prefix). With one word that is the answer (a word
 * is always in one name); with more, each candidate's names (the `author` facet facts) are
 * checked, since the words may be in different names.
 */
export async function authorFilterOrdinals(
  alternatives: readonly (readonly string[])[],
  postingsOf: (word: string) => Promise<TermPostings>,
  authorFacts: () => Promise<FacetFacts>,
): Promise<Int32Array> {
  const found = new Set<number>();
  const folded = new Map<number, string[]>();
  for (const words of alternatives) {
    const lists = await Promise.all(words.map(postingsOf));
    const last = words.length - 1;
    const candidates = intersect(lists.map((list, i) => ({ ords: inAuthors(list, i === last) }))).ords;
    if (words.length === 1) {
      for (const ord of candidates) found.add(ord);
      continue;
    }
    const { values, starts, ranks } = await authorFacts();
    for (let k = 0; k < candidates.length; k++) {
      if (k > 0 && k % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const ord = candidates[k]!;
      for (let i = starts[ord]!; i < starts[ord + 1]!; i++) {
        const rank = ranks[i]!;
        let nameWords = folded.get(rank);
        if (nameWords === undefined) folded.set(rank, (nameWords = textWords(values[rank]!)));
        if (nameHasWords(nameWords, words)) {
          found.add(ord);
          break;
        }
      }
    }
  }
  return Int32Array.from(found).sort();
}

/** The papers of a term's lists whose authors hold the word itself, or (`prefix`) any word starting with it. */
function inAuthors(list: TermPostings, prefix: boolean): Int32Array {
  const counts = prefix ? list.authorsAll : list.authorsWhole;
  if (counts === null) return new Int32Array(0);
  const out = new Int32Array(list.ords.length);
  let n = 0;
  for (let i = 0; i < list.ords.length; i++) if (counts[i]! > 0) out[n++] = list.ords[i]!;
  return out.slice(0, n);
}
