import { EncodedPaper } from '../encoded-paper.js';
import type { Paper } from '../paper.js';
import { paperWords, type PaperWords } from '../search/paper-words.js';
import type { FieldLengths } from '../search/relevance.js';
import { computeFieldRanks, type FieldRanks } from './order-ranks.js';

/** Everything the in-memory source precomputes about a catalogue, once. */
export interface Catalogue {
  papers: readonly Paper[];
  encoded: readonly EncodedPaper[];
  words: readonly PaperWords[];
  lengths: readonly FieldLengths[];
  averages: FieldLengths;
  lowerTitles: readonly string[];
  lowerAbstracts: readonly string[];
  byId: ReadonlyMap<string, number>;
  ranks: FieldRanks;
}

/** Builds a catalogue; throws on a duplicate id. */
export function buildCatalogue(papers: readonly Paper[]): Catalogue {
  const byId = new Map<string, number>();
  papers.forEach((paper, index) => {
    if (byId.has(paper.id)) throw new Error(`paperlist: duplicate paper id ${JSON.stringify(paper.id)}`);
    byId.set(paper.id, index);
  });
  const words = papers.map(paperWords);
  const lengths = words.map((w) => ({
    title: w.title.length,
    abstract: w.abstract.length,
    authors: w.authors.reduce((sum, name) => sum + name.length, 0),
  }));
  const total = (pick: (l: FieldLengths) => number) => lengths.reduce((sum, l) => sum + pick(l), 0);
  const n = Math.max(papers.length, 1);
  return {
    papers,
    encoded: papers.map((paper) => EncodedPaper.fromPaper(paper)),
    words,
    lengths,
    averages: {
      title: total((l) => l.title) / n,
      abstract: total((l) => l.abstract) / n,
      authors: total((l) => l.authors) / n,
    },
    lowerTitles: papers.map((paper) => paper.title.toLowerCase()),
    lowerAbstracts: papers.map((paper) => paper.abstract.toLowerCase()),
    byId,
    ranks: computeFieldRanks(papers),
  };
}
