import { inverseDocumentFrequency, termScore, type FieldLengths } from '../search/relevance.js';
import type { TermOccurrences } from '../search/term-occurrences.js';
import type { SearchTerm } from '../source.js';
import type { IndexData } from './builder.js';
import { setSize } from './doc-set.js';
import { COUNTS_PER_DOC } from './field-layout.js';
import { accumulateWordRange } from './occurrences.js';
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
  const { titleLength, abstractLength, authorsLength } = layout;
  const oversize = layout.oversize.length > 0;
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    const match = matches[t]!;
    const idf = inverseDocumentFrequency(n, setSize(match.set));
    let counts: Uint32Array;
    if (match.phraseDocs === null) {
      counts = uint32Array(m * COUNTS_PER_DOC);
      accumulateWordRange(postings, layout, match.from, match.to, match.exact, docs, counts);
      fixOversize(index, docs, counts, term);
    } else {
      counts = phraseCountsOf(match, docs);
    }
    const arxivDocs = match.arxivDocs;
    let a = 0;
    for (let s = 0; s < m; s++) {
      const d = docs[s]!;
      const at = s * COUNTS_PER_DOC;
      found.title.whole = counts[at]!;
      found.title.prefix = counts[at + 1]!;
      found.abstract.whole = counts[at + 2]!;
      found.abstract.prefix = counts[at + 3]!;
      found.authors.whole = counts[at + 4]!;
      found.authors.prefix = counts[at + 5]!;
      while (a < arxivDocs.length && arxivDocs[a]! < d) a++;
      found.arxivId = a < arxivDocs.length && arxivDocs[a] === d;
      if (oversize) layout.lengthsOf(d, lengths);
      else {
        lengths.title = titleLength[d]!;
        lengths.abstract = abstractLength[d]!;
        lengths.authors = authorsLength[d]!;
      }
      scores[s]! += termScore(idf, found, lengths, averages);
    }
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
      for (let i = 0; i < COUNTS_PER_DOC; i++) counts[s * COUNTS_PER_DOC + i] = phraseCounts[j * COUNTS_PER_DOC + i]!;
    }
  }
  return counts;
}
