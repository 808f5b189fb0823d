import { describe, expect, it } from 'vitest';
import type { Paper } from '../paper.js';
import { comparePapersBy } from './compare-papers.js';
import { parseOrderKeys, resolveOrdering } from './parse-ordering.js';
import { compareCodePoints, titleSortKey } from './title-sort-key.js';

describe('parseOrderKeys', () => {
  it.each([
    ['published', 'published,id'],
    ['-published', '-published,id'],
    ['title,-arxiv_id', 'title,-arxiv_id,id'],
    ['-id', '-id'],
    ['id,title', 'id,title'],
    ['bogus,-published', '-published,id'],
    ['title,-title', 'title,id'],
    [' published ', 'published,id'],
  ])('%j -> %j', (value, expected) => {
    const keys = parseOrderKeys(value);
    expect(keys?.map((k) => (k.descending ? '-' : '') + k.field).join(',')).toBe(expected);
  });

  it.each(['', 'bogus', '-', ',,', 'Title', 'published_at'])('%j has nothing valid', (value) => {
    expect(parseOrderKeys(value)).toBeNull();
  });

  it('falls back to relevance with a search and to title otherwise', () => {
    expect(resolveOrdering('bogus', true).kind).toBe('relevance');
    expect(resolveOrdering(undefined, false)).toEqual({
      kind: 'fields',
      keys: [
        { field: 'title', descending: false },
        { field: 'id', descending: false },
      ],
    });
  });
});

describe('titleSortKey', () => {
  const sorted = (titles: string[]) =>
    titles
      .map((t) => [titleSortKey(t), t] as const)
      .sort((a, b) => compareCodePoints(a[0], b[0]))
      .map(([, t]) => t);

  it.each([
    [['beta', 'Alpha', 'alpha'], ['Alpha', 'alpha', 'beta']],
    [['$\\beta$-VAE', 'Attention'], ['Attention', '$\\beta$-VAE']],
    [['Schrödinger bridge', 'Schrodinger Bridges'], ['Schrödinger bridge', 'Schrodinger Bridges']],
    [['A-B', 'AB', 'A B'], ['A B', 'A-B', 'AB']],
    [['abc', 'ab'], ['ab', 'abc']],
    [['{BERT}', 'bert'], ['bert', '{BERT}']],
    [['10 tricks', '9 tricks'], ['10 tricks', '9 tricks']],
  ])('%j sorts as %j', (titles, expected) => {
    expect(sorted(titles)).toEqual(expected);
  });
});

describe('compareCodePoints', () => {
  it('orders astral characters after U+FFFD, unlike UTF-16 comparison', () => {
    expect('\u{1F600}' < '\uFFFD').toBe(true);
    expect(compareCodePoints('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0);
    expect(compareCodePoints('b', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('x', 'x')).toBe(0);
  });
});

describe('comparePapersBy', () => {
  const paper = (id: string, published: string | null): Paper => ({
    id, arxiv_id: null, nips_id: null, url_abs: '', url_pdf: '', title: id, abstract: '', authors: [],
    published, conference: null, conference_url_abs: null, conference_url_pdf: null, proceeding: null,
  });
  const papers = [paper('a', '2020-01-01'), paper('b', null), paper('c', '2019-01-01'), paper('d', null)];
  it.each([
    ['published', ['c', 'a', 'b', 'd']],
    ['-published', ['b', 'd', 'a', 'c']],
  ])('%s puts nulls where PostgreSQL does', (ordering, ids) => {
    const keys = parseOrderKeys(ordering)!;
    expect(papers.slice().sort(comparePapersBy(keys)).map((p) => p.id)).toEqual(ids);
  });
});
