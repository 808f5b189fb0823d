import { describe, expect, it } from 'vitest';
import type { PaperFilters } from '../source.js';
import { nameHasWords } from './author-match.js';
import { dayBound, intersectRanges, publishedInRange, yearRange } from './date-range.js';
import { readExtensionFilters } from './extension-params.js';
import { DEFAULT_VENUE_ALIASES, venueKey, venueKeysFor } from './venue-key.js';

describe('dayBound', () => {
  it.each<[string, 'first' | 'last', string | null]>([
    ['2020', 'first', '2020-01-01'],
    ['2020', 'last', '2020-12-31'],
    ['2020-02', 'first', '2020-02-01'],
    ['2020-02', 'last', '2020-02-29'],
    ['2019-02', 'last', '2019-02-28'],
    ['1900-02', 'last', '1900-02-28'],
    ['2000-02', 'last', '2000-02-29'],
    ['2020-04', 'last', '2020-04-30'],
    ['2020-06-15', 'first', '2020-06-15'],
    ['2020-06-15', 'last', '2020-06-15'],
    [' 2020-06-15 ', 'first', '2020-06-15'],
    ['2019-02-29', 'first', null],
    ['2020-13', 'first', null],
    ['2020-00', 'last', null],
    ['2020-01-00', 'first', null],
    ['0000', 'first', null],
    ['20', 'first', null],
    ['2020-1', 'first', null],
    ['2020-01-1', 'first', null],
    ['2020/01/01', 'first', null],
    ['yesterday', 'first', null],
    ['２０２０', 'first', null],
  ])('%j as the %s day: %j', (value, edge, expected) => {
    expect(dayBound(value, edge)).toBe(expected);
  });
});

describe('yearRange', () => {
  it.each<[string, ReturnType<typeof yearRange>]>([
    ['2020', { from: '2020-01-01', to: '2020-12-31' }],
    ['2016-2020', { from: '2016-01-01', to: '2020-12-31' }],
    ['2010-', { from: '2010-01-01' }],
    ['-2015', { to: '2015-12-31' }],
    ['2020-2016', { from: '2020-01-01', to: '2016-12-31' }],
    [' 2020 ', { from: '2020-01-01', to: '2020-12-31' }],
    ['-', null],
    ['20202021', null],
    ['2020-21', null],
    ['0000', null],
    ['2020--2021', null],
    ['twenty', null],
  ])('%j: %j', (value, expected) => {
    expect(yearRange(value)).toEqual(expected);
  });

  it('intersects ranges: the latest start, the earliest end', () => {
    expect(intersectRanges([{ from: '2010-01-01' }, { to: '2015-12-31' }, { from: '2012-03-01', to: '2020-12-31' }])).toEqual({ from: '2012-03-01', to: '2015-12-31' });
    expect(intersectRanges([{ to: '2015-12-31' }])).toEqual({ to: '2015-12-31' });
  });

  it.each<[string | null, string | undefined, string | undefined, boolean]>([
    [null, undefined, undefined, false],
    [null, '2000-01-01', undefined, false],
    ['2020-01-01', '2020-01-01', '2020-01-01', true],
    ['2020-01-02', undefined, '2020-01-01', false],
    ['2019-12-31', '2020-01-01', undefined, false],
    ['2019-12-31', undefined, undefined, true],
  ])('publishedInRange(%j, %j, %j): %j', (published, from, to, expected) => {
    expect(publishedInRange(published, from, to)).toBe(expected);
  });
});

describe('venueKey', () => {
  it.each<[string | null, string | null]>([
    ['acl-2020-7', 'acl'],
    ['NeurIPS 2018 12', 'neurips'],
    ['naacl-2019-6', 'naacl'],
    ['lrec-2016', 'lrec'],
    ['ws-2015-9', 'ws'],
    ['nlpcovid19-2020-7', 'nlpcovid19'],
    ['Ws_2015_9', 'ws'],
    ['x--12-3', 'x'],
    ['x1-2', 'x1'],
    ['a-1b-2', 'a-1b'],
    ['findings', 'findings'],
    ['ÉCOLE 2020', 'École'],
    ['2020', '2020'], // no separator before the digits: no date to remove
    ['-2020-7', null],
    ['', null],
    [null, null],
  ])('%j → %j', (proceeding, expected) => {
    expect(venueKey(proceeding)).toBe(expected);
  });

  it.each<[string, Record<string, string>, string[]]>([
    ['acl', DEFAULT_VENUE_ALIASES, ['acl']],
    [' ACL ', DEFAULT_VENUE_ALIASES, ['acl']],
    ['nips', DEFAULT_VENUE_ALIASES, ['neurips', 'nips']],
    ['NeurIPS', DEFAULT_VENUE_ALIASES, ['neurips', 'nips']],
    ['neurips', {}, ['neurips']],
    ['cl', { cl: 'coling', coling2: 'coling' }, ['cl', 'coling', 'coling2']],
  ])('venue=%j with %j stands for %j', (value, aliases, expected) => {
    expect(venueKeysFor(value, aliases)).toEqual(expected);
  });
});

describe('nameHasWords', () => {
  it.each<[string[], string[], boolean]>([
    [['graham', 'neubig'], ['graham', 'neubig'], true],
    [['graham', 'neubig'], ['neubig', 'graham'], true],
    [['graham', 'neubig'], ['graham', 'neu'], true],
    [['graham', 'neubig'], ['gra', 'neubig'], false],
    [['graham', 'neubig'], ['g'], true],
    [['graham', 'neubig'], ['graham', 'graham'], true],
    [['graham', 'neubig'], ['graham', 'dyer'], false],
    [[], ['a'], false],
  ])('%j holds %j: %j', (name, words, expected) => {
    expect(nameHasWords(name, words)).toBe(expected);
  });
});

describe('readExtensionFilters', () => {
  const read = (query: Record<string, string>) => {
    const filters: PaperFilters = {};
    const result = readExtensionFilters(Object.entries(query), filters, { venueAliases: DEFAULT_VENUE_ALIASES });
    return result.ok ? { filters, ...(result.countOnly ? { countOnly: true } : {}) } : { errors: result.errors };
  };

  it.each<[Record<string, string>, unknown]>([
    [{}, { filters: {} }],
    [{ published_after: '', year: ' ', author: '', venue: '', proceeding: '' }, { filters: {} }],
    [{ published_after: '2020-02' }, { filters: { published: { from: '2020-02-01' } } }],
    [{ published_before: '2020-02' }, { filters: { published: { to: '2020-02-29' } } }],
    [{ year: '2016-2020', published_after: '2018-05' }, { filters: { published: { from: '2018-05-01', to: '2020-12-31' } } }],
    [{ author: 'Graham Neubig | Chris Dyer' }, { filters: { authors: [['graham', 'neubig'], ['chris', 'dyer']] } }],
    [{ author: 'Müller|' }, { filters: { authors: [['muller']] } }],
    [{ author: '|' }, { filters: {} }],
    // Author names exactly as written: not folded, not trimmed; distinct, sorted.
    [{ author_name: 'Graham Neubig|Chris Dyer|Graham Neubig' }, { filters: { authorNames: ['Chris Dyer', 'Graham Neubig'] } }],
    [{ author_name: ' Łukasz Kaiser |' }, { filters: { authorNames: [' Łukasz Kaiser '] } }],
    [{ author_name: '|' }, { filters: {} }],
    [{ author_name: Array.from({ length: 101 }, (_, i) => `n${i}`).join('|') }, { errors: { author_name: ['Ensure this value has at most 100 alternatives.'] } }],
    [{ author_name: 'a'.repeat(1001) }, { errors: { author_name: ['Ensure this value has at most 1000 characters.'] } }],
    [{ proceeding: 'acl-2020-7|naacl-2019-6|acl-2020-7' }, { filters: { proceedings: ['acl-2020-7', 'naacl-2019-6'] } }],
    [{ venue: 'NIPS|acl' }, { filters: { venues: ['acl', 'neurips', 'nips'] } }],
    [{ published_after: '2020-13' }, { errors: { published_after: ['Enter a valid date.'] } }],
    [{ published_before: 'soon', year: '20-20' }, { errors: { published_before: ['Enter a valid date.'], year: ['Enter a valid year or range of years: 2020, 2016-2020, 2010- or -2015.'] } }],
    [{ author: 'graham|---' }, { errors: { author: ['Enter words of an author name, alternatives separated by |.'] } }],
    [{ author: Array.from({ length: 33 }, (_, i) => `a${i}`).join('|') }, { errors: { author: ['Ensure this value has at most 32 alternatives.'] } }],
    [{ author: 'a'.repeat(1001) }, { errors: { author: ['Ensure this value has at most 1000 characters.'] } }],
    [{ venue: Array.from({ length: 101 }, (_, i) => `v${i}`).join('|') }, { errors: { venue: ['Ensure this value has at most 100 alternatives.'] } }],
    // Batch lookups: distinct values sorted by code point, kept exactly (no trimming, no folding).
    [{ id: 'b|a|b| c' }, { filters: { ids: [' c', 'a', 'b'] } }],
    [{ id: 'only-one' }, { filters: { ids: ['only-one'] } }],
    [{ id: '|' }, { filters: {} }],
    [{ id: Array.from({ length: 100 }, (_, i) => `p${i}`).join('|') }, { filters: { ids: Array.from({ length: 100 }, (_, i) => `p${i}`).sort() } }],
    [{ id: Array.from({ length: 101 }, (_, i) => `p${i}`).join('|') }, { errors: { id: ['Ensure this value has at most 100 alternatives.'] } }],
    [{ arxiv_id: '1810.04805|1706.03762' }, { filters: { arxivIds: ['1706.03762', '1810.04805'] } }],
    // One value is the original exact filter, read elsewhere: nothing here.
    [{ arxiv_id: '1706.03762' }, { filters: {} }],
    [{ arxiv_id: Array.from({ length: 101 }, (_, i) => `${i}`).join('|') }, { errors: { arxiv_id: ['Ensure this value has at most 100 alternatives.'] } }],
    [{ count_only: '1' }, { filters: {}, countOnly: true }],
    [{ count_only: 'TRUE' }, { filters: {}, countOnly: true }],
    [{ count_only: 'off' }, { filters: {} }],
    [{ count_only: '0' }, { filters: {} }],
    [{ count_only: 'maybe' }, { errors: { count_only: ['Must be a valid boolean.'] } }],
  ])('%j → %j', (query, expected) => {
    expect(read(query)).toEqual(expected);
  });

  it('reads the last of a repeated parameter', () => {
    const filters: PaperFilters = {};
    readExtensionFilters([['year', 'bad'], ['year', '2019']], filters, { venueAliases: {} });
    expect(filters.published).toEqual({ from: '2019-01-01', to: '2019-12-31' });
  });
});
