import { matchesExtensionFilters, termMatches, termOccurrences, type PaperQuery, type SearchTerm, type TermOccurrences } from '@paperlist/core';
import { StalePostingsError } from '../term-postings.js';
import type { DeltaLog, DeltaPaper, DeltaView } from './delta-log.js';

/** A paper written since the lists that matches a query, with each term's occurrences in it (for relevance). */
export interface DeltaMatch {
  paper: DeltaPaper;
  occurrences: TermOccurrences[];
}

/** What a query finds among the papers written since the lists. */
export interface DeltaAnswer {
  matches: DeltaMatch[];
  /** Per term: how many of the view's written papers it matches (its share of the document frequency). */
  termCounts: number[];
}

/**
 * The view's written papers matching the query, by the reference's own definitions (the scan
 * source's: `termMatches`, lower-cased `includes`, `matchesExtensionFilters`), a term's candidates
 * found in the log's index of the written papers' words. Tasks and methods are not held for written papers: a
 * `task=`/`method=` filter with any written paper throws {@link StalePostingsError} (SQL answers).
 */
export function deltaMatches(view: DeltaView, query: Pick<PaperQuery, 'terms' | 'filters'>): DeltaAnswer {
  const { filters } = query;
  const live = view.live();
  if (live.length === 0) return { matches: [], termCounts: query.terms.map(() => 0) };
  if (filters.tasks !== undefined || filters.methods !== undefined) throw new StalePostingsError('paperlist: tasks and methods of written papers are in SQL');
  const log = view.log;
  const perTerm = query.terms.map((term) => liveHits(view, termHits(log, term, view.written)));
  const title = filters.titleContains?.toLowerCase();
  const abstract = filters.abstractContains?.toLowerCase();
  const candidates = perTerm.length === 0 ? live : intersectHits(perTerm).map((index) => log.papers[index]!);
  const matches: DeltaMatch[] = [];
  for (const paper of candidates) {
    if (filters.arxivId !== undefined && paper.paper.arxiv_id !== filters.arxivId) continue;
    if (title !== undefined && !paper.lowerTitle.includes(title)) continue;
    if (abstract !== undefined && !paper.lowerAbstract.includes(abstract)) continue;
    if (!matchesExtensionFilters(paper.paper, paper.words.authors, filters)) continue;
    matches.push({ paper, occurrences: query.terms.map((term) => termOccurrences(paper.words, paper.paper.arxiv_id, term)) });
  }
  return { matches, termCounts: perTerm.map((hits) => hits.length) };
}

/**
 * The indexes of the log's first `written` papers that a term matches (retired ones included),
 * kept per term until papers are added. Candidates come from the log's word index (the papers
 * holding each whole word and a word starting with the last); a term of one word and no arXiv id
 * matches exactly those (a word of a field starts with it), others are checked with `termOccurrences`.
 */
function termHits(log: DeltaLog, term: SearchTerm, written: number): readonly number[] {
  const key = JSON.stringify([term.words, term.arxivId]);
  let indexes = log.hits.get(key);
  if (indexes === undefined) {
    const { words } = term;
    let candidates: readonly number[] = log.papersWithPrefix(words[words.length - 1]!);
    for (let i = 0; i < words.length - 1 && candidates.length > 0; i++) {
      const holding = new Set(log.papersWithWord(words[i]!));
      candidates = candidates.filter((index) => holding.has(index));
    }
    if (term.arxivId !== null) candidates = log.papers.map((_, index) => index);
    indexes =
      words.length === 1 && term.arxivId === null
        ? candidates
        : candidates.filter((index) => {
            const { words: paperWords, paper } = log.papers[index]!;
            return termMatches(termOccurrences(paperWords, paper.arxiv_id, term));
          });
    if (log.hits.size >= MAX_KEPT_TERMS) log.hits.clear();
    log.hits.set(key, indexes);
  }
  // Papers written after the view are not the view's.
  let end = indexes.length;
  while (end > 0 && indexes[end - 1]! >= written) end--;
  return end === indexes.length ? indexes : indexes.slice(0, end);
}

/** Most terms whose matching written papers the log keeps; past it, it starts over. */
const MAX_KEPT_TERMS = 20_000;

function liveHits(view: DeltaView, indexes: readonly number[]): number[] {
  return indexes.filter((index) => view.holdsDelta(index));
}

/** The indexes in every one of the ascending lists. */
function intersectHits(lists: readonly number[][]): number[] {
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let out = sorted[0]!;
  for (let k = 1; k < sorted.length && out.length > 0; k++) {
    const other = new Set(sorted[k]!);
    out = out.filter((index) => other.has(index));
  }
  return out;
}
