import type { Occurrences, TermOccurrences } from './term-occurrences.js';

/**
 * The constants of relevance scoring: BM25 per field, fields weighted (title above
 * authors above abstract), prefix-only occurrences worth less than whole words.
 */
export const RELEVANCE = {
  k1: 1.2,
  b: 0.75,
  prefixWeight: 0.5,
  titleWeight: 3,
  abstractWeight: 1,
  authorsWeight: 1.5,
  arxivIdWeight: 3,
} as const;

/** Mean field lengths in words over the catalogue (authors: all names of a paper together). */
export interface FieldLengths {
  title: number;
  abstract: number;
  authors: number;
}

/** BM25's inverse document frequency of a term matching `matching` of `total` papers. */
export function inverseDocumentFrequency(total: number, matching: number): number {
  return Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
}

/** Saturated term frequency of one field (BM25's tf part). */
export function fieldScore(found: Occurrences, length: number, averageLength: number): number {
  const tf = found.whole + RELEVANCE.prefixWeight * found.prefix;
  if (tf === 0) return 0;
  const norm = 1 - RELEVANCE.b + (RELEVANCE.b * length) / (averageLength > 0 ? averageLength : 1);
  return (tf * (RELEVANCE.k1 + 1)) / (tf + RELEVANCE.k1 * norm);
}

/**
 * The score one term gives one paper. A paper's relevance is the sum over the query's
 * terms, added in query order; engines must compute it with these same operations so that
 * scores, and therefore orders, are identical.
 */
export function termScore(idf: number, found: TermOccurrences, lengths: FieldLengths, averages: FieldLengths): number {
  const fields =
    RELEVANCE.titleWeight * fieldScore(found.title, lengths.title, averages.title) +
    RELEVANCE.abstractWeight * fieldScore(found.abstract, lengths.abstract, averages.abstract) +
    RELEVANCE.authorsWeight * fieldScore(found.authors, lengths.authors, averages.authors);
  return idf * (fields + (found.arxivId ? RELEVANCE.arxivIdWeight : 0));
}
