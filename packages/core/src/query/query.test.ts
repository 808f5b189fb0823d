import { describe, expect, it } from 'vitest';
import { parseListQuery } from './parse-list-query.js';
import { formatQueryString, lastValue, parseQueryString } from './query-string.js';

describe('parseQueryString', () => {
  it.each([
    ['', []],
    ['q=deep+learning', [['q', 'deep learning']]],
    ['q=deep%20learning', [['q', 'deep learning']]],
    ['q=a&q=b', [['q', 'a'], ['q', 'b']]],
    ['flag&x=', [['flag', ''], ['x', '']]],
    ['&&q=1&', [['q', '1']]],
    ['q%5B%5D=x&q%5Ba%5D=y', [['q[]', 'x'], ['q[a]', 'y']]],
    ['q=caf%C3%A9', [['q', 'café']]],
    ['q=a%2Bb', [['q', 'a+b']]],
    ['q=tab%09ok', [['q', 'tab\tok']]],
  ])('%j', (raw, pairs) => {
    expect(parseQueryString(raw)).toEqual({ ok: true, pairs });
  });

  it.each([
    ['q=%ZZ', 'malformed-encoding'],
    ['q=%E0%A4%A', 'malformed-encoding'],
    ['q=%FF', 'malformed-encoding'],
    ['q=%ED%A0%80', 'malformed-encoding'],
    ['q=%', 'malformed-encoding'],
    ['%ZZ=1', 'malformed-encoding'],
    ['q=a%00b', 'control-character'],
    ['q=a%1Bb', 'control-character'],
    ['q=a%7Fb', 'control-character'],
    ['q=%C2%85', 'control-character'],
  ])('%j is refused (%s)', (raw, error) => {
    expect(parseQueryString(raw)).toEqual({ ok: false, error });
  });
});

describe('formatQueryString', () => {
  it.each<[[string, string][], string]>([
    [[['q', 'deep learning']], 'q=deep+learning'],
    [[['z', '1'], ['a', '2']], 'a=2&z=1'],
    [[['q', 'b'], ['a', 'x'], ['q', 'a']], 'a=x&q=b&q=a'],
    [[['q', "it's (a)*!~_.-"]], 'q=it%27s+%28a%29%2A%21~_.-'],
    [[['q[]', 'x']], 'q%5B%5D=x'],
    [[['q', 'café/ü?&=+']], 'q=caf%C3%A9%2F%C3%BC%3F%26%3D%2B'],
    [[['flag', '']], 'flag='],
  ])('%j -> %s', (pairs, expected) => {
    expect(formatQueryString(pairs)).toBe(expected);
  });

  it('takes the last of repeated values', () => {
    expect(lastValue([['q', 'a'], ['q', 'b']], 'q')).toBe('b');
    expect(lastValue([], 'q')).toBeUndefined();
  });
});

describe('parseListQuery', () => {
  const sizes = { pageSize: 50, maxPageSize: 500 };
  const parse = (raw: string) => {
    const parsed = parseQueryString(raw);
    if (!parsed.ok) throw new Error(parsed.error);
    return parseListQuery(parsed.pairs, sizes);
  };
  const request = (raw: string) => {
    const result = parse(raw);
    if (!result.ok) throw new Error(result.error);
    return result.request;
  };

  it.each([
    ['', 1],
    ['page=', 1],
    ['page=1', 1],
    ['page=7', 7],
    ['page=+3', 3],
    ['page=last', 'last'],
    ['page=2&page=5', 5],
  ])('page in %j is %j', (raw, page) => {
    expect(request(raw).page).toBe(page);
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'page=LAST', 'page=1e3'])('%j is an invalid page', (raw) => {
    expect(parse(raw)).toEqual({ ok: false, error: 'invalid-page' });
  });

  it('reads a huge page number as a number past any last page', () => {
    expect(request('page=99999999999999999999999').page).toBeGreaterThan(2 ** 53);
  });

  it.each([
    ['', 50],
    ['items_per_page=1', 1],
    ['items_per_page=500', 500],
    ['items_per_page=1000', 500],
    ['items_per_page=0', 50],
    ['items_per_page=-5', 50],
    ['items_per_page=abc', 50],
    ['items_per_page=2.5', 50],
    ['items_per_page=10&items_per_page=20', 20],
  ])('items_per_page in %j gives %i', (raw, size) => {
    expect(request(raw).pageSize).toBe(size);
  });

  it('reads the filters, ignoring empty values', () => {
    expect(request('arxiv_id=1706.03762&title=Attention&abstract=').filters).toEqual({
      arxivId: '1706.03762',
      titleContains: 'Attention',
    });
  });

  it('orders by relevance with q and no ordering, by the ordering otherwise', () => {
    expect(request('q=bert').ordering.kind).toBe('relevance');
    expect(request('q=bert&ordering=-published').ordering).toEqual({
      kind: 'fields',
      keys: [
        { field: 'published', descending: true },
        { field: 'id', descending: false },
      ],
    });
    expect(request('q=---').ordering.kind).toBe('fields');
  });

  it.each([
    [`q=${'a'.repeat(1001)}`, 'query-too-long'],
    [`q=${Array.from({ length: 33 }, () => 'x').join('+')}`, 'too-many-terms'],
  ])('refuses an oversized q', (raw, error) => {
    expect(parse(raw)).toEqual({ ok: false, error });
  });
});
