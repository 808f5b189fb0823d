/**
 * A paper as the Papers with Code API v1 served it: all 13 fields, always present,
 * in this order. Absent values are `null`; `authors` is `[]` when there are none.
 *
 * @example
 * const paper: Paper = {
 *   id: 'attention-is-all-you-need', arxiv_id: '1706.03762', nips_id: null,
 *   url_abs: 'https://arxiv.org/abs/1706.03762v1', url_pdf: 'https://arxiv.org/pdf/1706.03762v1.pdf',
 *   title: 'Attention Is All You Need', abstract: 'The dominant sequence transduction models…',
 *   authors: ['Ashish Vaswani', 'Noam Shazeer'], published: '2017-06-12',
 *   conference: null, conference_url_abs: null, conference_url_pdf: null, proceeding: null,
 * };
 */
export interface Paper {
  /** Lowercase hyphen-separated slug, unique in the catalogue. */
  id: string;
  /** arXiv identifier such as `1706.03762` or `hep-th/9307096`. */
  arxiv_id: string | null;
  nips_id: string | null;
  url_abs: string;
  url_pdf: string;
  title: string;
  abstract: string;
  authors: string[];
  /** Publication date as `YYYY-MM-DD`. */
  published: string | null;
  conference: string | null;
  conference_url_abs: string | null;
  conference_url_pdf: string | null;
  proceeding: string | null;
}

/** The 13 fields of a {@link Paper}, in the order every response writes them. */
export const PAPER_FIELDS = [
  'id',
  'arxiv_id',
  'nips_id',
  'url_abs',
  'url_pdf',
  'title',
  'abstract',
  'authors',
  'published',
  'conference',
  'conference_url_abs',
  'conference_url_pdf',
  'proceeding',
] as const satisfies readonly (keyof Paper)[];

/** Compact JSON of a paper with its fields in the canonical order, whatever order the object has. */
export function serializePaper(paper: Paper): string {
  return JSON.stringify({
    id: paper.id,
    arxiv_id: paper.arxiv_id,
    nips_id: paper.nips_id,
    url_abs: paper.url_abs,
    url_pdf: paper.url_pdf,
    title: paper.title,
    abstract: paper.abstract,
    authors: paper.authors,
    published: paper.published,
    conference: paper.conference,
    conference_url_abs: paper.conference_url_abs,
    conference_url_pdf: paper.conference_url_pdf,
    proceeding: paper.proceeding,
  });
}
