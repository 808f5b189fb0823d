import type { Paper } from '../paper.js';
import type { OrderKey } from '../source.js';
import { compareCodePoints, titleSortKey } from './title-sort-key.js';

/**
 * Compares two values of one ordering field ascending, with PostgreSQL's null placement:
 * nulls after every value. Strings compare by code point.
 */
export function compareNullable(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareCodePoints(a, b);
}

/** The value a paper is ordered by for one field (the title's sort key for `title`). */
export function orderValue(paper: Paper, field: OrderKey['field']): string | null {
  switch (field) {
    case 'title':
      return titleSortKey(paper.title);
    case 'published':
      return paper.published;
    case 'arxiv_id':
      return paper.arxiv_id;
    case 'id':
      return paper.id;
  }
}

/**
 * A comparator for papers under these keys. Descending reverses the whole comparison of a
 * key, so nulls come first descending, as in PostgreSQL. Slow (recomputes sort keys): meant
 * for references and small lists; sources precompute ranks instead.
 */
export function comparePapersBy(keys: readonly OrderKey[]): (a: Paper, b: Paper) => number {
  return (a, b) => {
    for (const key of keys) {
      const c = compareNullable(orderValue(a, key.field), orderValue(b, key.field));
      if (c !== 0) return key.descending ? -c : c;
    }
    return 0;
  };
}
