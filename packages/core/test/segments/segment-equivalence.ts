import { queryFor } from '@paperlist/conformance';
import fc from 'fast-check';
import { expect } from 'vitest';
import { compareCodePoints, positionOf, toJsonBytes, toPaper, type FacetCounts, type Paper, type PaperChange, type PaperQuery, type PaperSource } from '../../src/index.js';
import type { AnnotationMap, PaperAnnotations } from '../../src/annotations/annotations.js';

/**
 * What the tests of a catalogue in segments share: random write batches that stress what
 * segments get wrong (the same id twice in a batch, deletes of absent ids, papers moving in
 * every ordering, titles whose words and collation key change), and the comparison of a source
 * under test with the scan reference on queries of every kind (counts, windows from the first
 * page to past the end, relevance, facets, cursors, substring and extension filters).
 */

/** A few tasks and methods for the first papers, so that writes must carry them along. */
export function sampleAnnotations(papers: readonly Paper[]): AnnotationMap {
  const notes = new Map<string, PaperAnnotations>();
  papers.slice(0, 40).forEach((paper, i) => {
    if (i % 3 === 0) notes.set(paper.id, { tasks: [i % 2 === 0 ? 'Image Classification' : 'Parsing'], methods: [] });
  });
  return notes;
}

/** A random batch over ids of `pool` (present or not) and a few new ones. */
export function batchOf(pool: readonly Paper[]): fc.Arbitrary<PaperChange[]> {
  const ids = pool.map((p) => p.id);
  const id = fc.oneof(fc.constantFrom(...ids), fc.constantFrom('new-1', 'new-2', 'new-3', 'absent'));
  const donor = fc.constantFrom(...pool);
  const upsert = fc
    .record({
      id,
      donor,
      title: fc.option(fc.constantFrom('Moved to the front', 'zebra stripes', 'Ämne: Überblick', '  spaced  out ', 'moved network of the', 'Learning deep networks', 'a'), { nil: undefined }),
      abstract: fc.option(fc.constantFrom('', 'of the network of the learning', 'zebra zebra zebra learning'), { nil: undefined }),
      published: fc.option(fc.constantFrom(null, '1901-01-01', '2030-12-31', '2018-06-15'), { nil: undefined }),
      arxiv: fc.option(fc.constantFrom(null, '0000.00001', '9999.99999'), { nil: undefined }),
      authors: fc.option(fc.constantFrom<string[][]>([], ['Ada Smith'], ['Zed Moved', 'Ada Smith']), { nil: undefined }),
      proceeding: fc.option(fc.constantFrom(null, 'NeurIPS 2018', 'ACL 2020'), { nil: undefined }),
    })
    .map(({ id: paperId, donor: from, title, abstract, published, arxiv, authors, proceeding }): PaperChange => ({
      op: 'upsert',
      paper: {
        ...from,
        id: paperId,
        url_abs: `https://example.org/${paperId}`,
        ...(title === undefined ? {} : { title }),
        ...(abstract === undefined ? {} : { abstract }),
        ...(published === undefined ? {} : { published }),
        ...(arxiv === undefined ? {} : { arxiv_id: arxiv }),
        ...(authors === undefined ? {} : { authors }),
        ...(proceeding === undefined ? {} : { proceeding }),
      },
    }));
  const remove = id.map((paperId): PaperChange => ({ op: 'delete', id: paperId }));
  return fc.array(fc.oneof(upsert, upsert, remove), { minLength: 1, maxLength: 8 });
}

/** The catalogue after `batches`, applied the obvious way. */
export function finalCatalogue(start: readonly Paper[], batches: readonly PaperChange[][]): Paper[] {
  const byId = new Map(start.map((p) => [p.id, p]));
  for (const change of batches.flat()) {
    if (change.op === 'upsert') byId.set(change.paper.id, change.paper);
    else byId.delete(change.id);
  }
  return [...byId.values()];
}

const FACETS = ['year', 'venue', 'proceeding', 'task', 'method'] as const;

/** Requests that together touch every ordering, relevance, the filters, facets and batch lookups. */
export const REQUESTS = [
  '',
  'ordering=title',
  'ordering=-title',
  'ordering=published',
  'ordering=-published',
  'ordering=arxiv_id',
  'ordering=-arxiv_id,title',
  'ordering=-id',
  'ordering=published,-title',
  'q=learning',
  'q=deep+net',
  'q=%22neural+network%22',
  'q=%22of+the%22',
  'q=a&ordering=-published',
  'q=a',
  'q=zebra',
  'q=zebra+learning',
  'q=moved',
  'q=the+of',
  'q=0000.00001',
  'title=tion',
  'title=zebra',
  'abstract=of+the&ordering=title',
  'year=2018-',
  'year=1901',
  'author=smith',
  'author=zed&ordering=-title',
  'venue=neurips',
  'proceeding=ACL+2020',
  'task=parsing',
  'arxiv_id=9999.99999',
  'id=new-1|new-2|absent',
];

const ids = (page: { results: Parameters<typeof toPaper>[0][] }) => page.results.map((r) => toPaper(r).id);

/** The best `limit` author buckets as answers list them, and the null bucket. */
function bestAuthors(facets: FacetCounts | undefined, limit: number): string[] {
  const buckets = facets?.author ?? [];
  const values = buckets.filter((b) => b.value !== null && b.count > 0).sort((a, b) => b.count - a.count || compareCodePoints(a.value!, b.value!));
  return [...values.slice(0, limit).map((b) => `${b.value}:${b.count}`), `null:${buckets.find((b) => b.value === null)?.count ?? 0}`];
}

/** Facets in one order (sources may list buckets in any order). */
function sortedFacets(facets: FacetCounts | undefined): FacetCounts | undefined {
  if (facets === undefined) return undefined;
  const out: FacetCounts = {};
  for (const [field, buckets] of Object.entries(facets)) {
    out[field as keyof FacetCounts] = [...buckets].sort((a, b) => String(a.value).localeCompare(String(b.value)) || a.count - b.count);
  }
  return out;
}

/**
 * `got` answers every request of {@link REQUESTS} as `want` does: the count and facets, several
 * windows (first page, a middle, the last items, past the end, a deep one), and for an explicit
 * ordering a cursor page after a matching paper and after one that is not there.
 */
export async function expectSameAnswers(got: PaperSource, want: PaperSource, label: string, seed = 1): Promise<void> {
  let random = seed;
  const next = (max: number) => {
    random = (Math.imul(random, 1103515245) + 12345) >>> 0;
    return max <= 0 ? 0 : random % max;
  };
  for (const raw of REQUESTS) {
    const base = queryFor(raw, 0, 1e9);
    const full = await want.list({ ...base, facets: [...FACETS] });
    const all = ids(full);
    const count = full.count;
    const windows: [number, number][] = [
      [0, 50],
      [next(count + 1), 1 + next(9)],
      [Math.max(0, count - 1 - next(5)), 7],
      [count, 5],
      [next(count + 1), 0],
    ];
    for (const [offset, limit] of windows) {
      const query: PaperQuery = { ...base, offset, limit, ...(offset === 0 ? { facets: [...FACETS] } : {}) };
      const page = await got.list(query);
      expect(page.count, `${label}: count of ${raw}`).toBe(count);
      expect(ids(page), `${label}: ${raw} [${offset}, +${limit}]`).toEqual(all.slice(offset, offset + limit));
      if (offset === 0) expect(sortedFacets(page.facets), `${label}: facets of ${raw}`).toEqual(sortedFacets(full.facets));
    }
    // Author names: each source may list only the best `facetLimit`; those agree, counted across segments.
    for (const facetLimit of [1, 2, 1000]) {
      const query: PaperQuery = { ...base, limit: 0, facets: ['author'], facetLimit };
      const [gotAuthors, wantAuthors] = await Promise.all([got.list(query), want.list(query)]);
      expect(bestAuthors(gotAuthors.facets, facetLimit), `${label}: author facet of ${raw}, ${facetLimit}`).toEqual(bestAuthors(wantAuthors.facets, facetLimit));
    }
    if (base.ordering.kind !== 'fields' || full.results.length === 0) continue;
    const { keys } = base.ordering;
    const at = next(full.results.length);
    const paper = toPaper(full.results[at]!);
    for (const [position, from] of [
      [positionOf(paper, keys), at + 1],
      [positionOf({ ...paper, id: `${paper.id}-gone` }, keys), -1],
    ] as const) {
      const walk = { ...base, offset: 0, limit: 6, after: position };
      const [page, reference] = [await got.list(walk), await want.list(walk)];
      expect(ids(page), `${label}: cursor of ${raw} after ${at}`).toEqual(ids(reference));
      if (from >= 0) expect(ids(reference)).toEqual(all.slice(from, from + 6));
    }
  }
}

/** The JSON of a record (for comparing `get`). */
export function jsonOf(record: Parameters<typeof toJsonBytes>[0] | null): string | null {
  return record === null ? null : new TextDecoder().decode(toJsonBytes(record));
}
