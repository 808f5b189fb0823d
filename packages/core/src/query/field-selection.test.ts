import { describe, expect, it } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { serializePaper } from '../paper.js';
import { readFieldSelection, serializeFields } from './field-selection.js';

describe('readFieldSelection', () => {
  it.each<[[string, string][], unknown]>([
    [[], { ok: true, fields: null }],
    [[['fields', '']], { ok: true, fields: null }],
    [[['fields', 'title,id']], { ok: true, fields: ['id', 'title'] }],
    [[['fields', ' title , id ,, ']], { ok: true, fields: ['id', 'title'] }],
    [[['fields', 'id,id']], { ok: true, fields: ['id'] }],
    [[['omit', 'abstract,authors']], { ok: true, fields: ['id', 'arxiv_id', 'nips_id', 'url_abs', 'url_pdf', 'title', 'published', 'conference', 'conference_url_abs', 'conference_url_pdf', 'proceeding'] }],
    [[['fields', 'id,title,abstract'], ['omit', 'abstract']], { ok: true, fields: ['id', 'title'] }],
    [[['fields', 'id'], ['omit', 'id']], { ok: true, fields: [] }],
    [[['fields', 'bogus'], ['fields', 'id']], { ok: true, fields: ['id'] }],
    [[['fields', 'id,Title']], { ok: false, errors: { fields: ['Unknown field: "Title". Fields are id, arxiv_id, nips_id, url_abs, url_pdf, title, abstract, authors, published, conference, conference_url_abs, conference_url_pdf, proceeding.'] } }],
    [[['fields', 'x'], ['omit', 'y']], { ok: false, errors: { fields: [expect.stringContaining('"x"')], omit: [expect.stringContaining('"y"')] } }],
  ])('%j → %j', (pairs, expected) => {
    expect(readFieldSelection(pairs)).toEqual(expected);
  });
});

describe('serializeFields', () => {
  const paper = makePaper({ id: 'p', title: 'A "quoted" \u2028 title', authors: ['Ada'], published: '2020-01-02' });

  it('writes the named fields as serializePaper writes them, in its order', () => {
    expect(serializeFields(paper, ['id', 'title', 'authors'])).toBe('{"id":"p","title":"A \\"quoted\\" \u2028 title","authors":["Ada"]}');
    expect(serializeFields(paper, [])).toBe('{}');
    const all = ['id', 'arxiv_id', 'nips_id', 'url_abs', 'url_pdf', 'title', 'abstract', 'authors', 'published', 'conference', 'conference_url_abs', 'conference_url_pdf', 'proceeding'] as const;
    expect(serializeFields(paper, all)).toBe(serializePaper(paper));
  });
});
