import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, type MethodRecord, type Paper, type PaperAnnotations } from '@paperlist/core';
import { createClient, PaperlistError } from '../src/index.js';
import { servePaperlist, type TestServer } from './serve-paperlist.js';

const paper = (id: string, title: string): Paper => ({
  id,
  arxiv_id: null,
  nips_id: null,
  url_abs: `https://example.org/${id}`,
  url_pdf: `https://example.org/${id}.pdf`,
  title,
  abstract: '',
  authors: [],
  published: '2020-01-01',
  conference: null,
  conference_url_abs: null,
  conference_url_pdf: null,
  proceeding: null,
});

const adam: MethodRecord = { name: 'Adam', full_name: 'Adam', description: 'An optimizer.', introduced_year: 2014, source_url: null, source_title: null, code_snippet_url: null };

describe('client: tasks and methods', () => {
  let server: TestServer;
  beforeAll(async () => {
    const annotations = new Map<string, PaperAnnotations>([
      ['a', { tasks: ['Image Classification', 'Object Detection'], methods: [adam] }],
      ['b', { tasks: ['Image Classification'], methods: [] }],
    ]);
    const source = createMemorySource([paper('a', 'Alpha'), paper('b', 'Beta'), paper('c', 'Gamma')], { annotations });
    server = await servePaperlist({ source, allowedHosts: ['*'] });
  });
  afterAll(() => server.close());

  it("lists a paper's tasks and methods, and a task's papers", async () => {
    const client = createClient({ baseUrl: `${server.origin}/api/v1/` });
    const tasks = await client.paperTasks('a');
    expect(tasks.count).toBe(2);
    expect(tasks.results).toEqual([
      { id: 'image-classification', name: 'Image Classification', description: '' },
      { id: 'object-detection', name: 'Object Detection', description: '' },
    ]);
    expect((await client.paperTasks('a', { items_per_page: 1, page: 2 })).results.map((t) => t.id)).toEqual(['object-detection']);
    const methods = await client.paperMethods('a');
    expect(methods.results).toEqual([{ id: 'adam', name: 'Adam', full_name: 'Adam', description: 'An optimizer.', paper: null, introduced_year: 2014, source_url: null, source_title: null, code_snippet_url: null }]);
    const papers = await client.taskPapers('image-classification', { ordering: '-id' });
    expect(papers.results.map((p) => p.id)).toEqual(['b', 'a']);
    await expect(client.paperTasks('missing')).rejects.toBeInstanceOf(PaperlistError);
  });
});
