import type { Paper } from '@paperlist/core';

const paper = (fields: Partial<Paper> & { id: string; title: string }): Paper => ({
  arxiv_id: null,
  nips_id: null,
  url_abs: `https://example.org/abs/${fields.id}`,
  url_pdf: `https://example.org/pdf/${fields.id}.pdf`,
  abstract: '',
  authors: [],
  published: null,
  conference: null,
  conference_url_abs: null,
  conference_url_pdf: null,
  proceeding: null,
  ...fields,
});

/**
 * Small catalogue whose answers the source suite states literally: collation corner cases,
 * null dates, identical titles, accents, punctuation and phrases.
 */
export const SOURCE_FIXTURE: readonly Paper[] = [
  paper({ id: 'transformers-rule', title: 'Transformers Rule', abstract: 'We transform sequences with attention.', authors: ['Ada Lovelace'], published: '2019-06-01', arxiv_id: '1906.00001' }),
  paper({ id: 'schrodinger-bridges', title: 'Schrödinger Bridges', abstract: 'Entropic transport.', authors: ['Erwin Schrödinger'], published: '2021-01-15', arxiv_id: '2101.00002' }),
  paper({ id: 'schrodinger-bridge', title: 'Schrodinger bridge', abstract: 'A shorter title.', authors: ['Łukasz Kaiser'], published: null }),
  paper({ id: 'beta-vae', title: '$\\beta$-VAE: Learning Basic Visual Concepts', abstract: 'Disentangled representation learning.', authors: ['Irina Higgins', 'Loic Matthey'], published: '2017-04-01' }),
  paper({ id: 'gpt-4-report', title: 'GPT-4 Technical Report', abstract: 'We report the development of GPT-4, a large multimodal model.', authors: ['OpenAI'], published: '2023-03-15', arxiv_id: '2303.08774' }),
  paper({ id: 'gpt4all', title: 'GPT4All: open models', abstract: 'Assistant-style models trained on GPT 3.5 outputs.', authors: [], published: '2023-03-15' }),
  paper({ id: 'attention-is-all-you-need', title: 'Attention Is All You Need', abstract: 'The dominant sequence transduction models are based on recurrent networks.', authors: ['Ashish Vaswani', 'Noam Shazeer'], published: '2017-06-12', arxiv_id: '1706.03762' }),
  paper({ id: 'attention-1', title: 'Attention', abstract: 'Attention all the way down.', authors: ['Noam Chomsky'], published: null }),
  paper({ id: 'books-received', title: 'Books Received', abstract: '', authors: [], published: '1990-03-01' }),
  paper({ id: 'books-received-1', title: 'Books Received', abstract: '', authors: [], published: null }),
  paper({ id: 'books-received-2', title: 'Books received', abstract: '', authors: [], published: '1990-03-01' }),
  paper({ id: 'old-style', title: 'Strings on the lattice', abstract: 'Old-style identifiers.', authors: ['Shazeer Noam'], published: '1993-07-20', arxiv_id: 'hep-th/9307096' }),
];
