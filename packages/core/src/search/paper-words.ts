import type { Paper } from '../paper.js';
import { textWords } from '../text/words.js';

/**
 * The searchable words of a paper, by field. Each author name is a field of its own, so a
 * phrase never runs from one author into the next.
 */
export interface PaperWords {
  title: string[];
  abstract: string[];
  authors: string[][];
}

/** Splits a paper's searchable fields into folded words. */
export function paperWords(paper: Paper): PaperWords {
  return {
    title: textWords(paper.title),
    abstract: textWords(paper.abstract),
    authors: paper.authors.map(textWords),
  };
}
