import type { Paper } from '../src/paper.js';

/** A paper with every field filled by defaults, overridden by `fields`. */
export function makePaper(fields: Partial<Paper> & { id: string }): Paper {
  return {
    arxiv_id: null,
    nips_id: null,
    url_abs: `https://example.org/${fields.id}`,
    url_pdf: `https://example.org/${fields.id}.pdf`,
    title: fields.id,
    abstract: '',
    authors: [],
    published: null,
    conference: null,
    conference_url_abs: null,
    conference_url_pdf: null,
    proceeding: null,
    ...fields,
  };
}
