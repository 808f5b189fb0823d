import type { Paper } from '../paper.js';
import type { PaperFilters } from '../source.js';
import { authorsMatch } from './author-match.js';
import { publishedInRange } from './date-range.js';
import { venueKey } from './venue-key.js';
import { methodSlugs, taskSlugs, type PaperAnnotations } from '../annotations/annotations.js';

/** Whether a query's filters include any of the extension filters. */
export function hasExtensionFilters(filters: PaperFilters): boolean {
  return (
    filters.published !== undefined ||
    filters.authors !== undefined ||
    filters.authorNames !== undefined ||
    filters.proceedings !== undefined ||
    filters.venues !== undefined ||
    filters.arxivIds !== undefined ||
    filters.ids !== undefined ||
    filters.tasks !== undefined ||
    filters.methods !== undefined
  );
}

/**
 * The reference meaning of the extension filters on one paper (`authorWords`: its author
 * names as folded words; `annotations`: its tasks and methods, if any), which every source
 * must reproduce.
 */
export function matchesExtensionFilters(
  paper: Paper,
  authorWords: readonly (readonly string[])[],
  filters: PaperFilters,
  annotations?: PaperAnnotations,
): boolean {
  const { published, authors, authorNames, proceedings, venues, arxivIds, ids, tasks, methods } = filters;
  if (authorNames !== undefined && !paper.authors.some((name) => authorNames.includes(name))) return false;
  if (ids !== undefined && !ids.includes(paper.id)) return false;
  if (arxivIds !== undefined && (paper.arxiv_id === null || !arxivIds.includes(paper.arxiv_id))) return false;
  if (published !== undefined && !publishedInRange(paper.published, published.from, published.to)) return false;
  if (proceedings !== undefined && (paper.proceeding === null || !proceedings.includes(paper.proceeding))) return false;
  if (venues !== undefined) {
    const key = venueKey(paper.proceeding);
    if (key === null || !venues.includes(key)) return false;
  }
  if (tasks !== undefined && !taskSlugs(annotations).some((slug) => tasks.includes(slug))) return false;
  if (methods !== undefined && !methodSlugs(annotations).some((slug) => methods.includes(slug))) return false;
  if (authors !== undefined && !authorsMatch(authorWords, authors)) return false;
  return true;
}
