import type { SearchTerm } from '../source.js';
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

/** A term matching more than this share of the catalogue does not score. */
export const STOP_TERM_SHARE = 0.8;

/**
 * The weight a term's score is multiplied by: its inverse document frequency, or 0 when it
 * matches more than {@link STOP_TERM_SHARE} of the catalogue (`the`, `of`, `a`: every result
 * matches every term, and such a term's weight would be below 0.23 anyway, while counting
 * its millions of occurrences is most of the work of a query). Every source ranks with it.
 */
export function termWeight(total: number, matching: number): number {
  return matching > STOP_TERM_SHARE * total ? 0 : inverseDocumentFrequency(total, matching);
}

/** A last word of at most this many characters scores its whole-word occurrences only. */
export const SHORT_PREFIX_LENGTH = 2;

/**
 * The weight of a term's prefix-only occurrences (its last word starting a longer word): 0
 * when that word has one or two characters (`a`, `co`), whose prefix occurrences are those of
 * tens of thousands of words (too weak a signal to rank by, and unbounded work to count),
 * else `RELEVANCE.prefixWeight`. The term still matches those words; they only do not score.
 */
export function prefixWeightOf(term: SearchTerm): number {
  const last = term.words[term.words.length - 1] ?? '';
  let characters = 0;
  for (const _ of last) if (++characters > SHORT_PREFIX_LENGTH) return RELEVANCE.prefixWeight;
  return 0;
}

/** Saturated term frequency of one field (BM25's tf part). */
export function fieldScore(found: Occurrences, length: number, averageLength: number, prefixWeight: number = RELEVANCE.prefixWeight): number {
  const tf = found.whole + prefixWeight * found.prefix;
  if (tf === 0) return 0;
  const norm = 1 - RELEVANCE.b + (RELEVANCE.b * length) / (averageLength > 0 ? averageLength : 1);
  return (tf * (RELEVANCE.k1 + 1)) / (tf + RELEVANCE.k1 * norm);
}

/**
 * The score one term gives one paper. A paper's relevance is the sum over the query's
 * terms, added in query order; engines must compute it with these same operations so that
 * scores, and therefore orders, are identical.
 */
export function termScore(
  idf: number,
  found: TermOccurrences,
  lengths: FieldLengths,
  averages: FieldLengths,
  prefixWeight: number = RELEVANCE.prefixWeight,
): number {
  const fields =
    RELEVANCE.titleWeight * fieldScore(found.title, lengths.title, averages.title, prefixWeight) +
    RELEVANCE.abstractWeight * fieldScore(found.abstract, lengths.abstract, averages.abstract, prefixWeight) +
    RELEVANCE.authorsWeight * fieldScore(found.authors, lengths.authors, averages.authors, prefixWeight);
  return idf * (fields + (found.arxivId ? RELEVANCE.arxivIdWeight : 0));
}
