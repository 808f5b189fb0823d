import { describe, expect, it } from 'vitest';
import { PAPER_FIELDS, type Paper } from './paper.js';
import { isCalendarDate, PaperSchema, validatePaper } from './paper-schema.js';

const valid: Paper = {
  id: 'attention-is-all-you-need',
  arxiv_id: '1706.03762',
  nips_id: null,
  url_abs: 'https://arxiv.org/abs/1706.03762v1',
  url_pdf: 'https://arxiv.org/pdf/1706.03762v1.pdf',
  title: 'Attention Is All You Need',
  abstract: 'The dominant sequence transduction models…',
  authors: ['Ashish Vaswani', 'Noam Shazeer'],
  published: '2017-06-12',
  conference: null,
  conference_url_abs: null,
  conference_url_pdf: null,
  proceeding: null,
};

const withFields = (fields: Record<string, unknown>): Record<string, unknown> => ({ ...valid, ...fields });
const without = (field: string): Record<string, unknown> => {
  const copy: Record<string, unknown> = { ...valid };
  delete copy[field];
  return copy;
};

describe('validatePaper accepts', () => {
  it.each<[string, unknown]>([
    ['a complete paper', valid],
    ['nulls in every nullable field', withFields({ arxiv_id: null, published: null, proceeding: null })],
    ['strings in the nullable fields', withFields({ nips_id: 'x', conference: 'N19-1423', conference_url_abs: 'u', conference_url_pdf: 'p', proceeding: 'naacl-2019-6' })],
    ['a leap day', withFields({ published: '2020-02-29' })],
    ['29 February 2000 (divisible by 400)', withFields({ published: '2000-02-29' })],
    ['no authors', withFields({ authors: [] })],
    ['empty title and abstract', withFields({ title: '', abstract: '' })],
    ['an id with a collision suffix and non-slug characters', withFields({ id: 'paper-1.x_ü' })],
    ['fields in another order', Object.fromEntries(Object.entries(valid).reverse())],
  ])('%s', (_name, value) => {
    const result = validatePaper(value);
    expect(result).toEqual({ ok: true, paper: value });
    if (result.ok) expect(result.paper).toBe(value);
  });
});

describe('validatePaper rejects', () => {
  it.each<[string, unknown, string]>([
    ['a missing field', without('title'), 'missing field "title"'],
    ['a missing nullable field', without('nips_id'), 'missing field "nips_id"'],
    ['an unknown field', withFields({ publised: '2019-01-01' }), 'unknown field "publised"'],
    ['a number for a string', withFields({ title: 42 }), 'field "title": expected a string, got the number 42'],
    ['null for a string', withFields({ url_abs: null }), 'field "url_abs": expected a string, got null'],
    ['null for the abstract', withFields({ abstract: null }), 'field "abstract": expected a string, got null'],
    ['a boolean for a nullable string', withFields({ arxiv_id: true }), 'field "arxiv_id": expected a string or null, got true'],
    ['an object for a nullable string', withFields({ proceeding: {} }), 'field "proceeding": expected a string or null, got an object'],
    ['a number for the id', withFields({ id: 7 }), 'field "id": expected a string, got the number 7'],
    ['null for the id', withFields({ id: null }), 'field "id": expected a string, got null'],
    ['an empty id', withFields({ id: '' }), 'field "id": expected a non-empty id'],
    ['an id with a slash', withFields({ id: 'a/b' }), 'field "id": expected an id without whitespace, "/" or control characters, got "a/b"'],
    ['an id with a space', withFields({ id: 'a b' }), 'field "id": expected an id without whitespace, "/" or control characters, got "a b"'],
    ['an id with a control character', withFields({ id: 'a\u0001b' }), 'field "id": expected an id without whitespace, "/" or control characters, got "a\\u0001b"'],
    ['a string for authors', withFields({ authors: 'A. Author' }), 'field "authors": expected an array of strings, got "A. Author"'],
    ['null for authors', withFields({ authors: null }), 'field "authors": expected an array of strings, got null'],
    ['a non-string author', withFields({ authors: ['A', 3] }), 'field "authors": expected an array of strings, got the number 3 at index 1'],
    ['a null author', withFields({ authors: [null] }), 'field "authors": expected an array of strings, got null at index 0'],
    ['30 February', withFields({ published: '2019-02-30' }), 'field "published": expected a real date YYYY-MM-DD, got "2019-02-30"'],
    ['29 February of a common year', withFields({ published: '2019-02-29' }), 'field "published": expected a real date YYYY-MM-DD, got "2019-02-29"'],
    ['29 February 1900 (divisible by 100)', withFields({ published: '1900-02-29' }), 'field "published": expected a real date YYYY-MM-DD, got "1900-02-29"'],
    ['month 13', withFields({ published: '2019-13-01' }), 'field "published": expected a real date YYYY-MM-DD, got "2019-13-01"'],
    ['day 0', withFields({ published: '2019-01-00' }), 'field "published": expected a real date YYYY-MM-DD, got "2019-01-00"'],
    ['31 April', withFields({ published: '2019-04-31' }), 'field "published": expected a real date YYYY-MM-DD, got "2019-04-31"'],
    ['a date without zero padding', withFields({ published: '2019-1-1' }), 'field "published": expected a real date YYYY-MM-DD, got "2019-1-1"'],
    ['a date with a time', withFields({ published: '2019-01-01T00:00:00Z' }), 'field "published": expected a real date YYYY-MM-DD, got "2019-01-01T00:00:00Z"'],
    ['a number for the date', withFields({ published: 20190101 }), 'field "published": expected a date string YYYY-MM-DD or null, got the number 20190101'],
    ['an array', [valid], 'expected a JSON object, got an array'],
    ['null', null, 'expected a JSON object, got null'],
    ['a string', 'paper', 'expected a JSON object, got "paper"'],
  ])('%s', (_name, value, reason) => {
    expect(validatePaper(value)).toEqual({ ok: false, reason });
  });

  it('reports missing fields before unknown ones and before bad values', () => {
    const value = { ...without('id'), extra: 1, title: 3 };
    expect(validatePaper(value)).toEqual({ ok: false, reason: 'missing field "id"' });
  });

  it('truncates long values in reasons', () => {
    const result = validatePaper(withFields({ published: 'x'.repeat(500) }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeLessThan(120);
  });
});

describe('PaperSchema', () => {
  it('has the 13 fields, all required, with descriptions, and no other field', () => {
    expect(Object.keys(PaperSchema.properties)).toEqual([...PAPER_FIELDS]);
    expect(PaperSchema.required).toEqual([...PAPER_FIELDS]);
    expect(PaperSchema.additionalProperties).toBe(false);
    for (const field of PAPER_FIELDS) expect(PaperSchema.properties[field].description).toBeTruthy();
  });

  it('declares published as a nullable date', () => {
    expect(JSON.parse(JSON.stringify(PaperSchema.properties.published.anyOf))).toEqual([
      { type: 'string', format: 'date' },
      { type: 'null' },
    ]);
  });
});

describe('isCalendarDate', () => {
  it.each([
    ['2020-02-29', true],
    ['2021-02-28', true],
    ['2021-12-31', true],
    ['1969-09-01', true],
    ['2021-02-29', false],
    ['2021-00-10', false],
    ['2021-06-31', false],
    ['21-06-01', false],
    ['2021-06-01 ', false],
  ])('%s → %s', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });
});
