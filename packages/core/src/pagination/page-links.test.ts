import { describe, expect, it } from 'vitest';
import { buildPageLinks, pageCount, pageUrl } from './page-links.js';

const context = { origin: 'http://h:8000', path: '/api/v1/papers/', pairs: [['q', 'deep learning'], ['page', '2']] as [string, string][] };

describe('page links', () => {
  it.each([
    [1, 'http://h:8000/api/v1/papers/?q=deep+learning'],
    [2, 'http://h:8000/api/v1/papers/?page=2&q=deep+learning'],
    [10, 'http://h:8000/api/v1/papers/?page=10&q=deep+learning'],
  ])('page %i', (page, url) => {
    expect(pageUrl(context, page)).toBe(url);
  });

  it('drops the query entirely when only page was there', () => {
    expect(pageUrl({ origin: 'http://h', path: '/papers/', pairs: [['page', '3']] }, 1)).toBe('http://h/papers/');
  });

  it.each([
    [1, 1, { next: null, previous: null }],
    [1, 3, { next: 'http://h:8000/api/v1/papers/?page=2&q=deep+learning', previous: null }],
    [2, 3, { next: 'http://h:8000/api/v1/papers/?page=3&q=deep+learning', previous: 'http://h:8000/api/v1/papers/?q=deep+learning' }],
    [3, 3, { next: null, previous: 'http://h:8000/api/v1/papers/?page=2&q=deep+learning' }],
  ])('page %i of %i', (page, last, links) => {
    expect(buildPageLinks(context, page, last)).toEqual(links);
  });

  it.each([
    [0, 50, 1],
    [1, 50, 1],
    [50, 50, 1],
    [51, 50, 2],
    [4000, 37, 109],
  ])('%i results of %i per page make %i pages', (count, size, pages) => {
    expect(pageCount(count, size)).toBe(pages);
  });
});
