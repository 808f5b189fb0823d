import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EncodedPaper } from '../encoded-paper.js';
import { PAPER_FIELDS, type Paper } from '../paper.js';
import { loadSamplePapers } from '../sample.js';
import { serializeFields, type PaperField } from './field-selection.js';
import { projectFields } from './project-fields.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const tricky = fc.string({ unit: fc.constantFrom('a', 'é', '"', '\\\\', '\\n', '\\u0001', '😀', ',', ']', '[', ':', '\\u2028', '}', ' ') });
const nullable = fc.option(tricky, { nil: null });

const paper: fc.Arbitrary<Paper> = fc.record({
  id: tricky,
  arxiv_id: nullable,
  nips_id: nullable,
  url_abs: tricky,
  url_pdf: tricky,
  title: tricky,
  abstract: tricky,
  authors: fc.array(tricky, { maxLength: 4 }),
  published: nullable,
  conference: nullable,
  conference_url_abs: nullable,
  conference_url_pdf: nullable,
  proceeding: nullable,
});
const fields = fc.subarray([...PAPER_FIELDS]).map((chosen) => chosen as PaperField[]);

describe('projectFields', () => {
  it('cuts out exactly what serializeFields writes, for any paper and any fields', () => {
    fc.assert(
      fc.property(paper, fields, (p, chosen) => {
        expect(text(projectFields(EncodedPaper.fromPaper(p), chosen))).toBe(serializeFields(p, chosen));
      }),
      { numRuns: 2000, seed: 20261125 },
    );
  });

  it('agrees on every paper of the sample', async () => {
    for (const p of await loadSamplePapers()) {
      const encoded = EncodedPaper.fromPaper(p);
      for (const chosen of [['id', 'title'], ['authors'], [...PAPER_FIELDS], [], ['proceeding', 'abstract']] as PaperField[][]) {
        expect(text(projectFields(encoded, chosen))).toBe(serializeFields(p, chosen));
      }
    }
  });

  it('serializes a paper that is not encoded', () => {
    const p = { id: 'x', arxiv_id: null, nips_id: null, url_abs: 'u', url_pdf: 'v', title: 't', abstract: '', authors: [], published: null, conference: null, conference_url_abs: null, conference_url_pdf: null, proceeding: null };
    expect(text(projectFields(p, ['id', 'title']))).toBe('{"id":"x","title":"t"}');
  });
});
