import { inverseDocumentFrequency, termScore, type FieldLengths } from '../search/relevance.js';
import type { TermOccurrences } from '../search/term-occurrences.js';
import type { SearchTerm } from '../source.js';
import type { IndexData } from './builder.js';
import { setSize } from './doc-set.js';
import { COUNTS_PER_DOC } from './field-layout.js';
import { assignSlots, clearSlots, countWordRange } from './occurrences.js';
import { fixOversize, type TermMatch } from './term-match.js';
import { float64Array, uint32Array, uint8Array } from './alloc.js';

/**
 * Relevance of each of `docs` (ascending): for each term in query order, the reference
 * `termScore` of the term's occurrences in the document, with the term's document frequency
 * over the whole catalogue, the document's field lengths and the catalogue's averages. The
 * same function on the same numbers in the same order as the scan source, so the same scores.
 */
export function scoreDocs(
  index: IndexData,
  slotOf: Int32Array,
  docs: Uint32Array,
  terms: readonly SearchTerm[],
  matches: readonly TermMatch[],
): Float64Array {
  const m = docs.length;
  const scores = float64Array(m);
  const { layout, postings, n } = index;
  const found: TermOccurrences = {
    title: { whole: 0, prefix: 0 },
    abstract: { whole: 0, prefix: 0 },
    authors: { whole: 0, prefix: 0 },
    arxivId: false,
  };
  const lengths: FieldLengths = { title: 0, abstract: 0, authors: 0 };
  const averages = layout.averages;
  assignSlots(slotOf, docs);
  try {
    terms.forEach((term, t) => {
      const match = matches[t]!;
      const idf = inverseDocumentFrequency(n, setSize(match.set));
      let counts: Uint32Array;
      if (match.phraseDocs === null) {
        counts = uint32Array(m * COUNTS_PER_DOC);
        countWordRange(postings, layout, match.from, match.to, match.exact, docs, slotOf, counts, null, 0);
        fixOversize(index, docs, counts, term);
      } else {
        counts = phraseCountsOf(match, docs);
      }
      const isArxiv = uint8Array(m);
      for (const d of match.arxivDocs) {
        const s = slotOf[d]!;
        if (s >= 0) isArxiv[s] = 1;
      }
      for (let s = 0; s < m; s++) {
        const at = s * COUNTS_PER_DOC;
        found.title.whole = counts[at]!;
        found.title.prefix = counts[at + 1]!;
        found.abstract.whole = counts[at + 2]!;
        found.abstract.prefix = counts[at + 3]!;
        found.authors.whole = counts[at + 4]!;
        found.authors.prefix = counts[at + 5]!;
        found.arxivId = isArxiv[s] === 1;
        scores[s]! += termScore(idf, found, layout.lengthsOf(docs[s]!, lengths), averages);
      }
    });
  } finally {
    clearSlots(slotOf, docs);
  }
  return scores;
}

/** The phrase counts of a match, for `docs` (both ascending; absent documents count zero). */
function phraseCountsOf(match: TermMatch, docs: Uint32Array): Uint32Array {
  const counts = uint32Array(docs.length * COUNTS_PER_DOC);
  const phraseDocs = match.phraseDocs!;
  const phraseCounts = match.phraseCounts!;
  let j = 0;
  for (let s = 0; s < docs.length && j < phraseDocs.length; s++) {
    const d = docs[s]!;
    while (j < phraseDocs.length && phraseDocs[j]! < d) j++;
    if (j < phraseDocs.length && phraseDocs[j] === d) {
      counts.set(phraseCounts.subarray(j * COUNTS_PER_DOC, (j + 1) * COUNTS_PER_DOC), s * COUNTS_PER_DOC);
    }
  }
  return counts;
}
