import {
  compareCodePoints,
  createScanSource,
  isWritableSource,
  positionOf,
  type PaperChange,
  parseListQuery,
  parseQueryString,
  toPaper,
  type Paper,
  type FacetBucket,
  type FacetField,
  type PaperFilters,
  type PaperQuery,
  type PaperSource,
  type AnnotationMap,
  type MethodRecord,
  type PaperAnnotations,
} from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_FIXTURE } from './source-fixture.js';

/** A source under test, built from a catalogue. */
export interface SourceSuiteTarget {
  name: string;
  /**
   * Builds the source holding exactly `papers`, with their tasks and methods (from the Papers
   * with Code dump) when `annotations` is given; may take a while (imports).
   */
  create(papers: readonly Paper[], annotations?: AnnotationMap): Promise<PaperSource & { close?(): Promise<void> }>;
  /**
   * Whether relevance order (q without ordering) is identical to the reference. Sources
   * that rank differently (PostgreSQL's ts_rank_cd) still must find the same papers.
   */
  exactRelevance?: boolean;
}

/** A list query written as a query string, read by the core's own parser. */
/** The best `limit` buckets as answers list them (count descending, then value by code points), and the `null` bucket's count. */
function bestBuckets(buckets: FacetBucket[] | undefined, limit: number): string[] {
  const values = (buckets ?? []).filter((b) => b.value !== null && b.count > 0);
  values.sort((a, b) => b.count - a.count || compareCodePoints(a.value!, b.value!));
  const none = (buckets ?? []).find((b) => b.value === null)?.count ?? 0;
  return [...values.slice(0, limit).map((b) => `${b.value}:${b.count}`), `null:${none}`];
}

export function queryFor(raw: string, offset = 0, limit = 50): PaperQuery {
  const parsed = parseQueryString(raw);
  if (!parsed.ok) throw new Error(`bad test query ${raw}`);
  const list = parseListQuery(parsed.pairs, { pageSize: 50, maxPageSize: 500 });
  if (!list.ok) throw new Error(`bad test query ${raw}`);
  const { terms, filters, ordering } = list.request;
  return { terms, filters, ordering, offset, limit };
}

const ids = (page: { results: Parameters<typeof toPaper>[0][] }) => page.results.map((r) => toPaper(r).id);

/** A paper of only an id and a title (the other fields empty), for small catalogues of one test. */
function fixturePaper(id: string, title: string): Paper {
  return { id, arxiv_id: null, nips_id: null, url_abs: `https://example.org/${id}`, url_pdf: `https://example.org/${id}.pdf`, title, abstract: '', authors: [], published: null, conference: null, conference_url_abs: null, conference_url_pdf: null, proceeding: null };
}

/**
 * The one suite every PaperSource passes: literal answers on a small catalogue, then the
 * same answers as the reference scan source on the 4,000-paper sample for a table of
 * queries and a few hundred seeded random ones.
 */
export function definePaperSourceSuite(target: SourceSuiteTarget): void {
  const exactRelevance = target.exactRelevance ?? true;

  describe(`PaperSource suite: ${target.name} (literal answers)`, () => {
    let source: PaperSource & { close?(): Promise<void> };
    beforeAll(async () => {
      source = await target.create(SOURCE_FIXTURE);
    });
    afterAll(async () => {
      await source?.close?.();
    });
    const list = async (raw: string, offset = 0, limit = 50) => source.list(queryFor(raw, offset, limit));

    it.each<[string, string[]]>([
      ['', ['attention-1', 'attention-is-all-you-need', 'beta-vae', 'books-received', 'books-received-1', 'books-received-2', 'gpt4all', 'gpt-4-report', 'schrodinger-bridge', 'schrodinger-bridges', 'old-style', 'transformers-rule']],
      ['ordering=-title', ['transformers-rule', 'old-style', 'schrodinger-bridges', 'schrodinger-bridge', 'gpt-4-report', 'gpt4all', 'books-received-2', 'books-received', 'books-received-1', 'beta-vae', 'attention-is-all-you-need', 'attention-1']],
      ['ordering=published', ['books-received', 'books-received-2', 'old-style', 'beta-vae', 'attention-is-all-you-need', 'transformers-rule', 'schrodinger-bridges', 'gpt-4-report', 'gpt4all', 'attention-1', 'books-received-1', 'schrodinger-bridge']],
      ['ordering=-published', ['attention-1', 'books-received-1', 'schrodinger-bridge', 'gpt-4-report', 'gpt4all', 'schrodinger-bridges', 'transformers-rule', 'attention-is-all-you-need', 'beta-vae', 'old-style', 'books-received', 'books-received-2']],
      ['ordering=arxiv_id', ['attention-is-all-you-need', 'transformers-rule', 'schrodinger-bridges', 'gpt-4-report', 'old-style', 'attention-1', 'beta-vae', 'books-received', 'books-received-1', 'books-received-2', 'gpt4all', 'schrodinger-bridge']],
      ['ordering=-id', ['transformers-rule', 'schrodinger-bridges', 'schrodinger-bridge', 'old-style', 'gpt4all', 'gpt-4-report', 'books-received-2', 'books-received-1', 'books-received', 'beta-vae', 'attention-is-all-you-need', 'attention-1']],
      ['ordering=-published,-id', ['schrodinger-bridge', 'books-received-1', 'attention-1', 'gpt4all', 'gpt-4-report', 'schrodinger-bridges', 'transformers-rule', 'attention-is-all-you-need', 'beta-vae', 'old-style', 'books-received-2', 'books-received']],
      ['ordering=title,-published', ['attention-1', 'attention-is-all-you-need', 'beta-vae', 'books-received-1', 'books-received', 'books-received-2', 'gpt4all', 'gpt-4-report', 'schrodinger-bridge', 'schrodinger-bridges', 'old-style', 'transformers-rule']],
    ])('orders %j', async (raw, expected) => {
      const page = await list(raw);
      expect(page.count).toBe(SOURCE_FIXTURE.length);
      expect(ids(page)).toEqual(expected);
    });

    it.each<[string, string[]]>([
      ['q=transform&ordering=id', ['transformers-rule']],
      ['q=TRANSFORMERS&ordering=id', ['transformers-rule']],
      ['q=schrodinger&ordering=id', ['schrodinger-bridge', 'schrodinger-bridges']],
      ['q=Schrödinger+bridges&ordering=id', ['schrodinger-bridges']],
      ['q=lukasz&ordering=id', []],
      ['q=łukasz&ordering=id', ['schrodinger-bridge']],
      ['q=gpt-4&ordering=id', ['gpt-4-report']],
      ['q=gpt4&ordering=id', ['gpt4all']],
      ['q=gpt&ordering=id', ['gpt-4-report', 'gpt4all']],
      ['q=%22attention+is+all%22&ordering=id', ['attention-is-all-you-need']],
      ['q=%22all+the+way+do%22&ordering=id', ['attention-1']],
      ['q=%22is+attention%22&ordering=id', []],
      ['q=attention+noam&ordering=id', ['attention-1', 'attention-is-all-you-need']],
      ['q=noam+shazeer&ordering=id', ['attention-is-all-you-need', 'old-style']],
      ['q=%22noam+shazeer%22&ordering=id', ['attention-is-all-you-need']],
      ['q=%22vaswani+noam%22&ordering=id', []],
      ['q=1706.03762&ordering=id', ['attention-is-all-you-need']],
      ['q=hep-th/9307096&ordering=id', ['old-style']],
      ['q=beta,vae&ordering=id', ['beta-vae']],
      ['q=%24%5Cbeta%24&ordering=id', ['beta-vae']],
      ['q=---&ordering=id', SOURCE_FIXTURE.map((p) => p.id).sort()],
      ['arxiv_id=1706.03762', ['attention-is-all-you-need']],
      ['arxiv_id=1706.0376', []],
      ['title=BOOKS&ordering=id', ['books-received', 'books-received-1', 'books-received-2']],
      ['title=s+r&ordering=id', ['books-received', 'books-received-1', 'books-received-2', 'transformers-rule']],
      ['abstract=Transport&ordering=id', ['schrodinger-bridges']],
      ['q=model&abstract=multimodal&ordering=id', ['gpt-4-report']],
      ['q=zzzz', []],
    ])('finds %j', async (raw, expected) => {
      const page = await list(raw);
      expect(ids(page)).toEqual(expected);
      expect(page.count).toBe(expected.length);
    });

    it.each<[string, string[]]>([
      ['author_name=Noam%20Shazeer&ordering=id', ['attention-is-all-you-need']],
      ['author_name=Noam%20Shazeer%7CNoam%20Chomsky%7CNobody&ordering=id', ['attention-1', 'attention-is-all-you-need']],
      ['author_name=noam%20shazeer', []],
      ['author_name=Noam', []],
      ['author_name=Erwin%20Schr%C3%B6dinger&ordering=id', ['schrodinger-bridges']],
      ['author_name=%C5%81ukasz%20Kaiser&q=bridge&ordering=id', ['schrodinger-bridge']],
      ['year=2017&ordering=id', ['attention-is-all-you-need', 'beta-vae']],
      ['year=2017-2017&ordering=id', ['attention-is-all-you-need', 'beta-vae']],
      ['year=-1993&ordering=id', ['books-received', 'books-received-2', 'old-style']],
      ['year=2019-&ordering=published', ['transformers-rule', 'schrodinger-bridges', 'gpt-4-report', 'gpt4all']],
      ['year=2020-2016', []],
      ['published_after=2021&ordering=id', ['gpt-4-report', 'gpt4all', 'schrodinger-bridges']],
      ['published_after=2021-01-16&ordering=id', ['gpt-4-report', 'gpt4all']],
      ['published_before=1990-03&ordering=id', ['books-received', 'books-received-2']],
      ['published_before=1990-02&ordering=id', []],
      ['published_after=2017-04-02&published_before=2019-06&ordering=id', ['attention-is-all-you-need', 'transformers-rule']],
      ['published_after=2017&year=2019-2023&published_before=2023-03-14&ordering=-published', ['schrodinger-bridges', 'transformers-rule']],
      ['q=attention&published_before=2100&ordering=-published', ['transformers-rule', 'attention-is-all-you-need']],
      ['author=noam&ordering=id', ['attention-1', 'attention-is-all-you-need', 'old-style']],
      ['author=noam+shazeer&ordering=id', ['attention-is-all-you-need', 'old-style']],
      ['author=shazeer+no&ordering=id', ['attention-is-all-you-need', 'old-style']],
      ['author=noa+c&ordering=id', []],
      ['author=noam+vaswani', []],
      ['author=%C5%81ukasz&ordering=id', ['schrodinger-bridge']],
      ['author=lukasz', []],
      ['author=SCHR%C3%96DINGER&ordering=id', ['schrodinger-bridges']],
      ['author=ada%7Copenai&ordering=id', ['gpt-4-report', 'transformers-rule']],
      ['author=%7C+ada+%7C&ordering=id', ['transformers-rule']],
      ['author=transform', []],
      ['q=attention&author=noam&ordering=-published', ['attention-1', 'attention-is-all-you-need']],
      ['author=noam&year=2017&title=all', ['attention-is-all-you-need']],
    ])('filters %j', async (raw, expected) => {
      const page = await list(raw);
      expect(ids(page)).toEqual(expected);
      expect(page.count).toBe(expected.length);
    });

    it('filters by proceeding (exact) and by venue (key derived from the proceeding, aliases)', async () => {
      const papers = [
        ['v-acl-2020', 'acl-2020-7'],
        ['v-acl-2019', 'acl-2019-7'],
        ['v-acl-upper', 'ACL 2021'],
        ['v-neurips', 'NeurIPS 2018 12'],
        ['v-nips', 'NIPS 2017 12'],
        ['v-naacl', 'naacl-2019-6'],
        ['v-covid', 'nlpcovid19-2020-7'],
        ['v-lrec', 'lrec-2016'],
        ['v-none', null],
      ].map(([id, proceeding]) => ({ ...fixturePaper(id!, `Paper ${id}`), proceeding: proceeding ?? null }));
      const small = await target.create(papers);
      try {
        const found = async (raw: string) => {
          const page = await small.list(queryFor(raw, 0, 50));
          expect(page.count, raw).toBe(page.results.length);
          return ids(page);
        };
        expect(await found('venue=acl&ordering=id')).toEqual(['v-acl-2019', 'v-acl-2020', 'v-acl-upper']);
        expect(await found('venue=ACL&ordering=-id')).toEqual(['v-acl-upper', 'v-acl-2020', 'v-acl-2019']);
        expect(await found('venue=neurips&ordering=id')).toEqual(['v-neurips', 'v-nips']);
        expect(await found('venue=NIPS&ordering=id')).toEqual(['v-neurips', 'v-nips']);
        expect(await found('venue=nlpcovid19')).toEqual(['v-covid']);
        expect(await found('venue=lrec%7Cnaacl&ordering=id')).toEqual(['v-lrec', 'v-naacl']);
        expect(await found('venue=acl-2020')).toEqual([]);
        expect(await found('proceeding=acl-2020-7%7CNeurIPS+2018+12&ordering=id')).toEqual(['v-acl-2020', 'v-neurips']);
        expect(await found('proceeding=ACL-2020-7')).toEqual([]);
        expect(await found('proceeding=lrec-2016&venue=lrec')).toEqual(['v-lrec']);
        expect(await found('proceeding=lrec-2016&venue=acl')).toEqual([]);
      } finally {
        await small.close?.();
      }
    });

    it('ranks by relevance: title above abstract, whole word above prefix, ties by title', async () => {
      const page = await list('q=attention');
      expect(new Set(ids(page))).toEqual(new Set(['attention-1', 'attention-is-all-you-need', 'transformers-rule']));
      if (exactRelevance) expect(ids(page)).toEqual(['attention-1', 'attention-is-all-you-need', 'transformers-rule']);
      expect(ids(await list('q=transformers'))).toEqual(['transformers-rule']);
    });

    it('does not rank by a term that matches more than 4/5 of the catalogue', async () => {
      // `the` is in every paper of this catalogue: it matches as ever, but scores nothing, so the
      // papers come in the default order (title); `dots` (in 4 of 5) still ranks by its count.
      const catalogue = [
        fixturePaper('p-quantum', 'The quantum dots of the lattice'),
        fixturePaper('p-many', 'The the the the the dots'),
        fixturePaper('p-and', 'Transformers and the dots'),
        fixturePaper('p-alone', 'Alone on the shelf'),
        fixturePaper('p-dots', 'The dots, dots and dots'),
      ];
      const small = await target.create(catalogue);
      try {
        const the = await small.list(queryFor('q=the'));
        expect(the.count).toBe(5);
        if (exactRelevance) expect(ids(the)).toEqual(['p-alone', 'p-dots', 'p-quantum', 'p-many', 'p-and']);
        const dots = await small.list(queryFor('q=the+dots'));
        expect(dots.count).toBe(4);
        if (exactRelevance) expect(ids(dots)[0]).toBe('p-dots');
      } finally {
        await small.close?.();
      }
    });

    it('ranks a one- or two-character term by its whole word only; its prefix matches still match', async () => {
      // `a` matches every word starting with it, but only the word `a` itself scores: the two
      // papers holding it come first, the others (attention, all, assistant…) tie, by title.
      const page = await list('q=a');
      const expected = ['schrodinger-bridge', 'gpt-4-report', 'attention-1', 'attention-is-all-you-need', 'gpt4all', 'transformers-rule'];
      expect(page.count).toBe(expected.length);
      expect(new Set(ids(page))).toEqual(new Set(expected));
      if (exactRelevance) expect(ids(page)).toEqual(expected);
    });

    it.each([
      [0, 5, ['attention-1', 'attention-is-all-you-need', 'beta-vae', 'books-received', 'books-received-1']],
      [10, 5, ['old-style', 'transformers-rule']],
      [12, 5, []],
      [100, 5, []],
      [3, 0, []],
    ])('windows offset %i limit %i with the full count', async (offset, limit, expected) => {
      const page = await list('', offset, limit);
      expect(page.count).toBe(SOURCE_FIXTURE.length);
      expect(ids(page)).toEqual(expected);
    });

    it('gets one paper by id, exactly as stored, or null', async () => {
      const found = await source.get('schrodinger-bridges');
      expect(found && toPaper(found)).toEqual(SOURCE_FIXTURE.find((p) => p.id === 'schrodinger-bridges'));
      expect(await source.get('no-such-paper')).toBeNull();
      expect(await source.get('')).toBeNull();
    });

    // Ids and values PostgreSQL cannot store (U+0000, lone surrogates) and over-long ones: no
    // paper has them, so the answer is "not found" / nothing matches, never an error (a 503).
    it('takes write batches, if it is writable: counts and answers as the scan reference after each', async () => {
      const papers = Array.from({ length: 12 }, (_, i) => ({ ...fixturePaper(`w-${i}`, `Written paper ${i}`), published: i % 3 === 0 ? null : `2020-0${1 + (i % 9)}-01` }));
      const small = await target.create(papers);
      const close = () => small.close?.();
      try {
        if (!isWritableSource(small)) return;
        const reference = createScanSource(papers);
        const batches: PaperChange[][] = [
          [{ op: 'upsert', paper: { ...fixturePaper('w-new', 'A brand new zebra paper'), published: '1999-01-01' } }],
          [
            { op: 'upsert', paper: { ...fixturePaper('w-1', 'Retitled zebra'), published: '2030-01-01' } },
            { op: 'delete', id: 'w-2' },
            { op: 'delete', id: 'absent' },
            { op: 'upsert', paper: fixturePaper('w-2', 'Back again') },
            { op: 'upsert', paper: fixturePaper('w-new-2', 'Twice written') },
            { op: 'upsert', paper: fixturePaper('w-new-2', 'Twice written, second') },
          ],
          [{ op: 'delete', id: 'w-new' }, { op: 'delete', id: 'w-3' }, { op: 'delete', id: 'w-3' }],
        ];
        for (const batch of batches) {
          const [got, want] = [await small.write(batch), await reference.write(batch)];
          expect(got).toEqual(want);
          for (const raw of ['ordering=-published', 'q=zebra&ordering=id', 'q=written', 'ordering=title']) {
            const [a, b] = await Promise.all([small.list(queryFor(raw, 0, 50)), reference.list(queryFor(raw, 0, 50))]);
            expect(a.count, raw).toBe(b.count);
            expect(ids(a), raw).toEqual(ids(b));
          }
        }
        expect(toPaper((await small.get('w-new-2'))!).title).toBe('Twice written, second');
        expect(await small.get('w-3')).toBeNull();
      } finally {
        await close();
      }
    });

    it('filters by task and method (slugs, | alternatives), answers annotations(id), keeps them through writes', async () => {
      const method = (name: string, fields: Partial<MethodRecord> = {}): MethodRecord => ({
        name,
        full_name: null,
        description: null,
        introduced_year: null,
        source_url: null,
        source_title: null,
        code_snippet_url: null,
        ...fields,
      });
      const adam = method('Adam', { full_name: 'Adam', description: 'An optimizer.', introduced_year: 2014, source_url: 'http://arxiv.org/abs/1412.6980v9', source_title: 'Adam', code_snippet_url: 'https://github.com/x' });
      const papers = ['t-a', 't-b', 't-c', 't-d', 't-e', 't-none'].map((id, i) => ({ ...fixturePaper(id, `Annotated paper ${id}`), published: `201${i}-01-01` }));
      const annotations = new Map<string, PaperAnnotations>([
        ['t-a', { tasks: ['Image Classification', 'Object Detection'], methods: [adam, method('ResNet')] }],
        ['t-b', { tasks: ['Image Classification'], methods: [] }],
        ['t-c', { tasks: ['Machine Translation'], methods: [method('Transformer'), method('Adam')] }],
        ['t-d', { tasks: [], methods: [method('Batch Normalization')] }],
        ['t-e', { tasks: ['Q-Learning', 'Image  classification!'], methods: [method('ResNet'), method('resnet')] }],
      ]);
      const small = await target.create(papers, annotations);
      const close = () => small.close?.();
      const reference = createScanSource(papers, { annotations });
      try {
        const found = async (raw: string, from: PaperSource = small) => {
          const page = await from.list(queryFor(raw, 0, 50));
          expect(page.count, raw).toBe(page.results.length);
          return ids(page);
        };
        const cases: [string, string[]][] = [
          ['task=image-classification&ordering=id', ['t-a', 't-b', 't-e']],
          ['task=Image+Classification&ordering=-id', ['t-e', 't-b', 't-a']],
          ['task=object-detection%7Cmachine-translation&ordering=id', ['t-a', 't-c']],
          ['task=q-learning', ['t-e']],
          ['task=segmentation', []],
          ['task=%21%21', []],
          ['method=adam&ordering=id', ['t-a', 't-c']],
          ['method=ResNet&ordering=-published', ['t-e', 't-a']],
          ['method=batch-normalization%7Ctransformer&ordering=id', ['t-c', 't-d']],
          ['task=image-classification&method=adam', ['t-a']],
          ['task=image-classification&method=transformer', []],
          ['task=image-classification&q=annotated&ordering=published', ['t-a', 't-b', 't-e']],
          ['task=image-classification&year=2011-', ['t-b', 't-e']],
          ['task=image-classification&id=t-b%7Ct-c', ['t-b']],
        ];
        for (const [raw, expected] of cases) {
          expect(await found(raw), raw).toEqual(expected);
          expect(await found(raw, reference), `reference: ${raw}`).toEqual(expected);
        }
        // Task and method facets: each paper once under each of its slugs, in null when it has none.
        const facetQuery = { ...queryFor('ordering=id', 0, 0), facets: ['task', 'method'] as FacetField[] };
        const sortedBuckets = (buckets: FacetBucket[] | undefined) => (buckets ?? []).filter((b) => b.value !== null || b.count > 0).map((b) => `${b.value}:${b.count}`).sort();
        const [gotFacets, wantFacets] = [await small.list(facetQuery), await reference.list(facetQuery)];
        for (const field of ['task', 'method'] as const) expect(sortedBuckets(gotFacets.facets?.[field]), field).toEqual(sortedBuckets(wantFacets.facets?.[field]));
        expect(sortedBuckets(gotFacets.facets?.task)).toEqual(['image-classification:3', 'machine-translation:1', 'null:2', 'object-detection:1', 'q-learning:1']);
        expect(sortedBuckets(gotFacets.facets?.method)).toEqual(['adam:2', 'batch-normalization:1', 'null:2', 'resnet:2', 'transformer:1']);
        if (small.annotations !== undefined) {
          expect(await small.annotations('t-a')).toEqual(annotations.get('t-a'));
          expect(await small.annotations('t-e')).toEqual({ tasks: ['Q-Learning', 'Image  classification!'], methods: [method('ResNet')] });
          expect(await small.annotations('t-none')).toEqual({ tasks: [], methods: [] });
          expect(await small.annotations('no-such-paper')).toBeNull();
          expect(await small.annotations('\u0000')).toBeNull();
        }
        if (isWritableSource(small)) {
          // A written paper keeps its tasks and methods; a deleted one loses them, also when written again.
          // (A batch counts by its net effect: a delete and an upsert of one id in one batch is an update.)
          const batches: PaperChange[][] = [
            [
              { op: 'upsert', paper: { ...fixturePaper('t-a', 'Retitled annotated paper'), published: '2020-01-01' } },
              { op: 'delete', id: 't-b' },
              { op: 'delete', id: 't-c' },
              { op: 'upsert', paper: fixturePaper('t-new', 'New paper') },
            ],
            [{ op: 'upsert', paper: fixturePaper('t-c', 'Back without annotations') }],
          ];
          for (const batch of batches) expect(await small.write(batch)).toEqual(await reference.write(batch));
          for (const [raw, expected] of [
            ['task=image-classification&ordering=id', ['t-a', 't-e']],
            ['method=adam&ordering=id', ['t-a']],
            ['method=transformer', []],
          ] as [string, string[]][]) {
            expect(await found(raw), raw).toEqual(expected);
            expect(await found(raw, reference), `reference: ${raw}`).toEqual(expected);
          }
          if (small.annotations !== undefined) {
            expect(await small.annotations('t-a')).toEqual(annotations.get('t-a'));
            expect(await small.annotations('t-c')).toEqual({ tasks: [], methods: [] });
            expect(await small.annotations('t-b')).toBeNull();
          }
        }
      } finally {
        await close();
      }
    });

    it('agrees with the reference on task and method filters over 400 annotated sample papers', async () => {
      const papers = (await loadSamplePapers()).slice(0, 400);
      const random = seededRandom(4242);
      const taskNames = ['Image Classification', 'Object Detection', 'Machine Translation', 'Language Modelling', 'Speech Recognition', 'Question Answering'];
      const methodNames = ['Adam', 'Dropout', 'ResNet', 'Transformer', 'LSTM', 'Batch Normalization'];
      const some = (names: readonly string[]) => names.filter(() => random() < 0.3);
      const annotations = new Map<string, PaperAnnotations>();
      for (const paper of papers) {
        if (random() < 0.2) continue;
        annotations.set(paper.id, { tasks: some(taskNames), methods: some(methodNames).map((name) => ({ name, full_name: name, description: null, introduced_year: 2015, source_url: null, source_title: null, code_snippet_url: null })) });
      }
      const small = await target.create(papers, annotations);
      const reference = createScanSource(papers, { annotations });
      try {
        const queries = [
          'task=image-classification',
          'task=object-detection%7Cspeech-recognition&ordering=-published',
          'method=adam&ordering=title',
          'method=dropout%7Clstm&task=question-answering&ordering=-arxiv_id',
          'task=machine-translation&q=translation&ordering=id',
          'method=resnet&year=2017-&ordering=published',
          'task=language-modelling&method=transformer&ordering=-title',
        ];
        for (const raw of queries) {
          for (const [offset, limit] of [[0, 50], [10, 7]] as const) {
            const query = queryFor(raw, offset, limit);
            const [got, want] = await Promise.all([small.list(query), reference.list(query)]);
            expect(got.count, raw).toBe(want.count);
            expect(ids(got), raw).toEqual(ids(want));
          }
        }
      } finally {
        await small.close?.();
      }
    });

    it('looks papers up by several ids and arXiv ids at once (batch lookup)', async () => {
      const papers = [
        { ...fixturePaper('p-1', 'One'), arxiv_id: '1706.03762' },
        { ...fixturePaper('p-2', 'Two'), arxiv_id: '1810.04805' },
        { ...fixturePaper('p-3', 'Three'), arxiv_id: '1810.04805' },
        fixturePaper('p|4', 'Four with a bar'),
        fixturePaper('P-1', 'Upper case id'),
      ];
      const small = await target.create(papers);
      try {
        const found = async (raw: string) => {
          const page = await small.list(queryFor(raw, 0, 50));
          expect(page.count, raw).toBe(page.results.length);
          return ids(page);
        };
        expect(await found('id=p-2%7Cp-1%7Cabsent&ordering=id')).toEqual(['p-1', 'p-2']);
        expect(await found('id=p-1')).toEqual(['p-1']);
        expect(await found('id=p-1%7Cp-1%7C')).toEqual(['p-1']);
        expect(await found('id=P-1%7Cp-3&ordering=-id')).toEqual(['p-3', 'P-1']);
        expect(await found('arxiv_id=1810.04805%7C1706.03762&ordering=id')).toEqual(['p-1', 'p-2', 'p-3']);
        expect(await found('arxiv_id=1810.04805%7Cnope&ordering=-id')).toEqual(['p-3', 'p-2']);
        expect(await found('arxiv_id=1706.03762')).toEqual(['p-1']);
        expect(await found('arxiv_id=1810.04805&id=p-3%7Cp-1')).toEqual(['p-3']);
        expect(await found('id=p-1%7Cp-2%7Cp-3&q=two')).toEqual(['p-2']);
        // `|` separates values, so an id holding one is found by itself only as one of the parts.
        expect(await found('id=p%7C4')).toEqual([]);
      } finally {
        await small.close?.();
      }
    });

    const unstorable = ['\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\udfff\ud800', 'x'.repeat(100_000)];

    it.each(unstorable.map((value) => [JSON.stringify(value.slice(0, 12)), value]))('gets no paper for the id %s', async (_name, id) => {
      expect(await source.get(id)).toBeNull();
      expect(await source.get(`${id}attention-1`)).toBeNull();
    });

    it.each(unstorable.map((value) => [JSON.stringify(value.slice(0, 12)), value]))('matches no paper by the filter value %s', async (_name, value) => {
      const extensions: PaperFilters[] = [{ ids: [value] }, { arxivIds: [value] }, { proceedings: [value] }, { venues: [value] }, { authors: [[value]] }, { authors: [['noam', value]] }, { authors: [[value, 'noam']] }, { authorNames: [value] }];
      for (const filters of [{ arxivId: value }, { titleContains: value }, { abstractContains: value }, { titleContains: 'a', abstractContains: value }, ...extensions]) {
        for (const raw of ['', 'q=attention', 'ordering=-published']) {
          const query = queryFor(raw);
          const page = await source.list({ ...query, filters: { ...query.filters, ...filters } });
          expect(page.count, `${raw} ${Object.keys(filters).join(',')}`).toBe(0);
          expect(page.results).toEqual([]);
        }
      }
    });

    it('returns every field of every paper unchanged', async () => {
      const page = await list('', 0, 500);
      const byId = new Map(SOURCE_FIXTURE.map((p) => [p.id, p]));
      for (const record of page.results) {
        const got = toPaper(record);
        expect(got).toEqual(byId.get(got.id));
      }
    });
  });

  describe(`PaperSource suite: ${target.name} (same answers as the reference on the sample)`, () => {
    let source: PaperSource & { close?(): Promise<void> };
    let reference: PaperSource;
    beforeAll(async () => {
      const papers = await loadSamplePapers();
      reference = createScanSource(papers);
      source = await target.create(papers);
    });
    afterAll(async () => {
      await source?.close?.();
    });

    const same = async (raw: string, offset: number, limit: number, orderMatters = true) => {
      const query = queryFor(raw, offset, limit);
      const [got, want] = await Promise.all([source.list(query), reference.list(query)]);
      expect(got.count, `count of ${raw}`).toBe(want.count);
      if (orderMatters) expect(ids(got), `${raw} [${offset}, +${limit}]`).toEqual(ids(want));
      else expect(new Set(ids(got))).toEqual(new Set(ids(want)));
    };

    it.each([
      '',
      'ordering=published',
      'ordering=-published',
      'ordering=title',
      'ordering=-title',
      'ordering=arxiv_id',
      'ordering=-arxiv_id',
      'ordering=id',
      'ordering=-published,title',
      'q=learning&ordering=-published',
      'q=neural+network&ordering=title',
      'q=%22neural+network%22&ordering=id',
      'q=transl&ordering=published',
      'q=bert&ordering=-id',
      'q=1810.04805&ordering=id',
      'q=graph,embedding&ordering=arxiv_id',
      'title=the&ordering=-title',
      'abstract=we+propose&ordering=published',
      'q=model&title=language&ordering=id',
      'year=2018&ordering=-published',
      'year=-2012&ordering=title',
      'published_after=2019-06&q=learning&ordering=title',
      'published_after=2016-02&published_before=2016-02&ordering=arxiv_id',
      'author=neubig&ordering=id',
      'author=g+neubig%7Cdyer&ordering=-published',
      'author=j&ordering=-title',
      'venue=acl&ordering=title',
      'venue=ws&year=2015-2019&author=a&ordering=-arxiv_id',
      'proceeding=acl-2020-7%7Cnaacl-2019-6&ordering=published',
      'q=translation&venue=acl%7Cemnlp&ordering=-published',
      'id=complex-procedures-for-mt-quality%7Cpreference-grammars-softening-syntactic%7Cword-prediction-for-inflected-languages&ordering=-title',
      'arxiv_id=hep-th/9304129%7C1212.2395%7C1807.08125&ordering=published',
      'arxiv_id=1212.2395%7C1807.08125&q=a&ordering=id',
    ])('%j matches the reference on every window', async (raw) => {
      for (const [offset, limit] of [
        [0, 50],
        [50, 50],
        [1000, 37],
        [3950, 500],
      ] as const) {
        await same(raw, offset, limit);
      }
    });

    it.each([
      'ordering=published',
      'ordering=-published',
      'ordering=arxiv_id',
      'ordering=-arxiv_id&year=2015-',
      'ordering=title&q=learning',
      'ordering=-title&abstract=we+propose',
      'ordering=published,-title&venue=acl',
      'ordering=-id&author=a',
      'q=zzqx&ordering=id',
      '',
    ])('walks %j by cursor positions exactly as the reference orders it, every page with the full count', async (raw) => {
      const full = await reference.list(queryFor(raw, 0, 5000));
      const { ordering } = queryFor(raw);
      if (ordering.kind !== 'fields') throw new Error('a walk needs an explicit ordering');
      const walked: string[] = [];
      let after: PaperQuery['after'];
      // Pages of 397: a walk of the 4,000 papers takes eleven of them.
      for (let pages = 0; pages < 20; pages++) {
        const page = await source.list({ ...queryFor(raw, 0, 397), ...(after === undefined ? {} : { after }) });
        expect(page.count, `count of ${raw}`).toBe(full.count);
        walked.push(...ids(page));
        const last = page.results.at(-1);
        if (page.results.length < 397 || last === undefined) break;
        after = positionOf(toPaper(last), ordering.keys);
      }
      expect(walked).toEqual(ids(full));
    });

    it('goes on from a position whose paper is gone, neither repeating nor skipping', async () => {
      const { ordering } = queryFor('ordering=-published');
      if (ordering.kind !== 'fields') throw new Error('unreachable');
      const full = ids(await reference.list(queryFor('ordering=-published', 0, 5000)));
      // A position between two stored papers (an id no paper has, with the 100th paper's date).
      const hundredth = toPaper((await reference.list(queryFor('ordering=-published', 99, 1))).results[0]!);
      const between = { values: [hundredth.published, `${hundredth.id}~`] };
      const page = await source.list({ ...queryFor('ordering=-published', 0, 50), after: between });
      const expected = await reference.list({ ...queryFor('ordering=-published', 0, 50), after: between });
      expect(ids(page)).toEqual(ids(expected));
      // Fifty papers from just after the 100th: none before it again, none of the following skipped.
      const at = full.indexOf(ids(page)[0]!);
      expect(at).toBeGreaterThan(full.indexOf(hundredth.id));
      expect(at).toBeLessThanOrEqual(full.indexOf(hundredth.id) + 1 + full.filter((id) => id.startsWith(hundredth.id)).length);
      expect(ids(page)).toEqual(full.slice(at, at + 50));
    });

    it.each(['', 'q=learning', 'year=2016-2018&ordering=-published', 'author=a&venue=acl', 'q=zzqx', 'title=the&q=model', 'proceeding=acl-2020-7%7Cnaacl-2019-6'])(
      'counts the facets of %j exactly as the reference (every value, the null bucket too)',
      async (raw) => {
        const query = { ...queryFor(raw, 0, 5), facets: ['year', 'venue', 'proceeding'] as FacetField[] };
        const [got, want] = await Promise.all([source.list(query), reference.list(query)]);
        const sorted = (buckets: FacetBucket[] | undefined) =>
          (buckets ?? []).filter((b) => b.value !== null || b.count > 0).map((b) => `${b.value}:${b.count}`).sort();
        for (const field of ['year', 'venue', 'proceeding'] as const) expect(sorted(got.facets?.[field]), `${raw} ${field}`).toEqual(sorted(want.facets?.[field]));
        expect(got.count).toBe(want.count);
        // Authors: a source may answer only the best `facetLimit` names; the best ones agree.
        for (const facetLimit of [1, 3, 1000]) {
          const authorQuery = { ...query, facets: ['author'] as FacetField[], facetLimit };
          const [gotAuthors, wantAuthors] = await Promise.all([source.list(authorQuery), reference.list(authorQuery)]);
          expect(bestBuckets(gotAuthors.facets?.author, facetLimit), `${raw} author ${facetLimit}`).toEqual(bestBuckets(wantAuthors.facets?.author, facetLimit));
        }
      },
    );

    it.each(['q=learning', 'q=attention', 'q=neural+machine+translation', 'q=%22word+embeddings%22', 'q=lstm', 'q=translation&venue=acl', 'q=learning&year=2019&author=a'])(
      'relevance %j matches the reference',
      async (raw) => {
        await same(raw, 0, 50, exactRelevance);
        await same(raw, 0, 5000, false);
      },
    );

    it('agrees with the reference on 300 seeded random queries', async () => {
      const papers = await loadSamplePapers();
      const random = seededRandom(20261123);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const words = papers.flatMap((p) => p.title.split(/\s+/).slice(0, 3)).filter((w) => /^[A-Za-z]{3,}$/.test(w));
      const orderings = ['', 'published', '-published', 'title', '-title', 'arxiv_id', '-arxiv_id', 'id', '-id', 'published,-title'];
      for (let i = 0; i < 300; i++) {
        const parts: string[] = [];
        const termCount = Math.floor(random() * 3);
        const terms = Array.from({ length: termCount }, () => {
          const word = pick(words).toLowerCase();
          return random() < 0.3 ? word.slice(0, 3 + Math.floor(random() * 3)) : word;
        });
        if (terms.length > 0) parts.push(`q=${encodeURIComponent(terms.join(' '))}`);
        const ordering = pick(orderings);
        if (ordering) parts.push(`ordering=${ordering}`);
        if (random() < 0.1) parts.push(`title=${encodeURIComponent(pick(words).toLowerCase().slice(0, 4))}`);
        if (random() < 0.1) parts.push(`year=${2005 + Math.floor(random() * 15)}-`);
        if (random() < 0.1) parts.push(`published_before=${pick(papers).published ?? '2015-07'}`);
        if (random() < 0.1) parts.push(`author=${encodeURIComponent(pick(pick(papers).authors.concat('a')).split(' ').at(-1)!.slice(0, 4))}`);
        if (random() < 0.05) parts.push(`venue=${pick(['acl', 'emnlp', 'ws', 'NAACL', 'nips'])}`);
        const exact = ordering !== '' || terms.length === 0 || exactRelevance;
        // A relevance order that may differ can only be compared as the whole set.
        if (exact) await same(parts.join('&'), Math.floor(random() * 3) * 20, 20);
        else await same(parts.join('&'), 0, 5000, false);
      }
      // Seconds alone; over 30 s on PGlite when several full suites share two cores.
    }, 180_000);
  });
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
