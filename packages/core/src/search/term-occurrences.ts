import type { SearchTerm } from '../source.js';
import type { PaperWords } from './paper-words.js';

/** How often a term occurs in one field: whole-word and prefix-only occurrences. */
export interface Occurrences {
  /** Occurrences whose last word matched a whole word. */
  whole: number;
  /** Occurrences whose last word matched only as a prefix of a longer word. */
  prefix: number;
}

/** A term's occurrences in each field of one paper. */
export interface TermOccurrences {
  title: Occurrences;
  abstract: Occurrences;
  authors: Occurrences;
  /** The term is an arXiv id equal to the paper's `arxiv_id`. */
  arxivId: boolean;
}

/**
 * Counts the places where a term's words occur consecutively in a field: every word whole
 * except the last, which may be a prefix. The reference definition of matching, used by
 * the in-memory source and by tests of faster engines.
 */
export function countOccurrences(field: readonly string[], words: readonly string[]): Occurrences {
  const result: Occurrences = { whole: 0, prefix: 0 };
  const last = words.length - 1;
  for (let start = 0; start + last < field.length; start++) {
    let ok = true;
    for (let j = 0; j < last; j++) {
      if (field[start + j] !== words[j]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const word = field[start + last]!;
    const wanted = words[last]!;
    if (word === wanted) result.whole++;
    else if (word.startsWith(wanted)) result.prefix++;
  }
  return result;
}

/** A term's occurrences in every field of a paper. */
export function termOccurrences(words: PaperWords, arxivId: string | null, term: SearchTerm): TermOccurrences {
  const authors: Occurrences = { whole: 0, prefix: 0 };
  for (const name of words.authors) {
    const found = countOccurrences(name, term.words);
    authors.whole += found.whole;
    authors.prefix += found.prefix;
  }
  return {
    title: countOccurrences(words.title, term.words),
    abstract: countOccurrences(words.abstract, term.words),
    authors,
    arxivId: term.arxivId !== null && term.arxivId === arxivId,
  };
}

/** Whether a term matches at all. */
export function termMatches(found: TermOccurrences): boolean {
  return (
    found.arxivId ||
    found.title.whole + found.title.prefix + found.abstract.whole + found.abstract.prefix + found.authors.whole + found.authors.prefix > 0
  );
}
