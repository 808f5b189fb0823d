import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PaperAnnotations } from '../annotations/annotations.js';
import { readCatalog } from '../formats/read-catalog.js';
import { createMemorySource } from '../memory/memory-source.js';
import type { Paper } from '../paper.js';
import { createScanSource } from '../scan/scan-source.js';
import type { PaperSource } from '../source.js';
import { createPapersHandler } from './papers-handler.js';
import type { PapersHandlerOptions } from './handler-options.js';

// A Papers with Code dump with tasks and methods, read through the real reader.
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/pwc-tasks-methods.json', import.meta.url));
let papers: Paper[];
const annotations = new Map<string, PaperAnnotations>();
beforeAll(async () => {
  papers = [];
  for await (const paper of readCatalog(FIXTURE, { annotations })) papers.push(paper);
});

const text = (body: Uint8Array | null) => (body === null ? '' : new TextDecoder().decode(body));

function handlerOf(source: PaperSource, options: Partial<PapersHandlerOptions> = {}) {
  const handle = createPapersHandler({ source, allowedHosts: ['h'], ...options });
  return async (url: string, method = 'GET') => {
    const response = await handle({ method, url, headers: { host: 'h' }, basePath: '/api/v1', origin: 'http://h' });
    return response === null ? null : { status: response.status, headers: response.headers, body: text(response.body) };
  };
}

const RESNET_TASKS = {
  count: 3,
  next: null,
  previous: null,
  results: [
    { id: 'image-classification', name: 'Image Classification', description: '' },
    { id: 'object-detection', name: 'Object Detection', description: '' },
    { id: 'semantic-segmentation', name: 'Semantic Segmentation', description: '' },
  ],
};

const ATTENTION_METHODS = {
  count: 2,
  next: null,
  previous: null,
  results: [
    {
      id: 'adam',
      name: 'Adam',
      full_name: 'Adam',
      description: 'Adam is an adaptive learning rate optimization algorithm.',
      paper: null,
      introduced_year: 2000,
      source_url: 'http://arxiv.org/abs/1412.6980v9',
      source_title: 'Adam: A Method for Stochastic Optimization',
      code_snippet_url: 'https://github.com/pytorch/pytorch/blob/main/torch/optim/adam.py',
    },
    { id: 'transformer', name: 'Transformer', full_name: 'Transformer', description: '', paper: null, introduced_year: 2000, source_url: 'http://arxiv.org/abs/1706.03762v5', source_title: 'Attention Is All You Need', code_snippet_url: null },
  ],
};

describe('the PwC reader keeps tasks and methods beside the papers', () => {
  it('reads them defensively, by paper id', () => {
    expect(papers.map((p) => p.id)).toEqual(['deep-residual-learning-for-image', 'attention-is-all-you-need', 'imagenet-classification-with-deep', 'a-paper-without-tasks']);
    expect([...annotations.keys()]).toEqual(['deep-residual-learning-for-image', 'attention-is-all-you-need', 'imagenet-classification-with-deep']);
    expect(annotations.get('imagenet-classification-with-deep')).toEqual({
      tasks: ['image classification'],
      methods: [{ name: 'Dropout', full_name: null, description: null, introduced_year: null, source_url: null, source_title: null, code_snippet_url: null }],
    });
    // Nothing of them in the papers themselves.
    for (const paper of papers) expect(Object.keys(paper)).toHaveLength(13);
  });
});

describe.each([
  ['memory', () => createMemorySource(papers, { annotations })],
  ['scan', () => createScanSource(papers, { annotations })],
])('the routes of tasks and methods on the %s source', (_name, create) => {
  let call: ReturnType<typeof handlerOf>;
  beforeAll(() => {
    call = handlerOf(create());
  });

  it.each<[string, number, unknown]>([
    ['/api/v1/papers/deep-residual-learning-for-image/tasks/', 200, RESNET_TASKS],
    ['/api/v1/papers/attention-is-all-you-need/methods/', 200, ATTENTION_METHODS],
    ['/api/v1/papers/a-paper-without-tasks/tasks/', 200, { count: 0, next: null, previous: null, results: [] }],
    ['/api/v1/papers/a-paper-without-tasks/methods/', 200, { count: 0, next: null, previous: null, results: [] }],
    ['/api/v1/papers/no-such-paper/tasks/', 404, { detail: 'Not found.' }],
    ['/api/v1/papers/no-such-paper/methods/', 404, { detail: 'Not found.' }],
    ['/api/v1/papers/%E0%A4%A/tasks/', 404, { detail: 'Not found.' }],
    ['/api/v1/tasks/no-such-task/papers/', 404, { detail: 'Not found.' }],
    ['/api/v1/tasks/---/papers/', 404, { detail: 'Not found.' }],
    [
      '/api/v1/papers/deep-residual-learning-for-image/tasks/?items_per_page=2',
      200,
      { ...RESNET_TASKS, next: 'http://h/api/v1/papers/deep-residual-learning-for-image/tasks/?items_per_page=2&page=2', results: RESNET_TASKS.results.slice(0, 2) },
    ],
    [
      '/api/v1/papers/deep-residual-learning-for-image/tasks/?items_per_page=2&page=last',
      200,
      { ...RESNET_TASKS, previous: 'http://h/api/v1/papers/deep-residual-learning-for-image/tasks/?items_per_page=2', results: RESNET_TASKS.results.slice(2) },
    ],
    ['/api/v1/papers/deep-residual-learning-for-image/tasks/?page=2', 404, { detail: 'Invalid page.' }],
    ['/api/v1/papers/deep-residual-learning-for-image/tasks/?page=x', 404, { detail: 'Invalid page.' }],
  ])('GET %s → %i', async (url, status, body) => {
    const answer = (await call(url))!;
    expect(answer.status).toBe(status);
    expect(answer.headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual(body);
  });

  it('lists the papers of a task like the list with task=, every list parameter applying', async () => {
    for (const [path, query] of [
      ['/api/v1/tasks/image-classification/papers/', 'task=image-classification'],
      ['/api/v1/tasks/image-classification/papers/?ordering=-published&items_per_page=1', 'task=image-classification&ordering=-published&items_per_page=1'],
      ['/api/v1/tasks/Image%20Classification/papers/?q=deep', 'task=image-classification&q=deep'],
      ['/api/v1/tasks/machine-translation/papers/?task=object-detection', 'task=machine-translation'],
    ] as const) {
      const [got, want] = [(await call(path))!, (await call(`/api/v1/papers/?${query}`))!];
      expect(got.status, path).toBe(200);
      const [a, b] = [JSON.parse(got.body), JSON.parse(want.body)];
      expect(a.count, path).toBe(b.count);
      expect(a.results, path).toEqual(b.results);
      expect(Object.keys(a)).toEqual(['count', 'next', 'previous', 'results']);
    }
    const page = JSON.parse((await call('/api/v1/tasks/image-classification/papers/?items_per_page=1&ordering=published'))!.body);
    expect(page.count).toBe(2);
    expect(page.results.map((p: Paper) => p.id)).toEqual(['imagenet-classification-with-deep']);
    expect(page.next).toBe('http://h/api/v1/tasks/image-classification/papers/?items_per_page=1&ordering=published&page=2');
  });

  it('filters the list by task and method', async () => {
    const ids = async (query: string) => JSON.parse((await call(`/api/v1/papers/?${query}`))!.body).results.map((p: Paper) => p.id);
    expect(await ids('task=image-classification&ordering=id')).toEqual(['deep-residual-learning-for-image', 'imagenet-classification-with-deep']);
    expect(await ids('method=adam|dropout&ordering=id')).toEqual(['attention-is-all-you-need', 'imagenet-classification-with-deep']);
    expect(await ids('task=image-classification&method=resnet')).toEqual(['deep-residual-learning-for-image']);
    const tooMany = (await call(`/api/v1/papers/?method=${Array.from({ length: 101 }, (_, i) => `m${i}`).join('|')}`))!;
    expect([tooMany.status, JSON.parse(tooMany.body)]).toEqual([400, { method: ['Ensure this value has at most 100 alternatives.'] }]);
  });

  it('redirects the paths without their trailing slash, answers HEAD and OPTIONS, refuses POST', async () => {
    const moved = (await call('/api/v1/papers/attention-is-all-you-need/tasks?page=1'))!;
    expect([moved.status, moved.headers['Location']]).toEqual([301, '/api/v1/papers/attention-is-all-you-need/tasks/?page=1']);
    expect((await call('/api/v1/tasks/image-classification/papers'))!.headers['Location']).toBe('/api/v1/tasks/image-classification/papers/');
    const head = (await call('/api/v1/papers/attention-is-all-you-need/methods/', 'HEAD'))!;
    expect([head.status, head.body]).toEqual([200, '']);
    expect((await call('/api/v1/papers/attention-is-all-you-need/methods/', 'OPTIONS'))!.status).toBe(200);
    expect((await call('/api/v1/papers/attention-is-all-you-need/methods/', 'POST'))!.status).toBe(405);
  });
});

describe('the routes of tasks and methods', () => {
  it('are not the handler\'s with the extensions off (as before them)', async () => {
    const call = handlerOf(createMemorySource(papers, { annotations }), { extensions: false });
    expect(await call('/api/v1/papers/attention-is-all-you-need/tasks/')).toBeNull();
    expect(await call('/api/v1/tasks/machine-translation/papers/')).toBeNull();
    const ignored = JSON.parse((await call('/api/v1/papers/?task=machine-translation'))!.body);
    expect(ignored.count).toBe(4);
  });

  it('leave the list and detail bytes exactly as without annotations', async () => {
    const [plain, annotated] = [handlerOf(createMemorySource(papers)), handlerOf(createMemorySource(papers, { annotations }))];
    for (const url of ['/api/v1/papers/', '/api/v1/papers/?ordering=-published', '/api/v1/papers/attention-is-all-you-need/']) {
      expect((await annotated(url))!.body, url).toBe((await plain(url))!.body);
    }
  });

  it('answer as if no paper had any on a source without annotations()', async () => {
    const inner = createScanSource(papers);
    const source: PaperSource = { list: (query, options) => inner.list(query, options), get: (id, options) => inner.get(id, options) };
    const call = handlerOf(source);
    expect(JSON.parse((await call('/api/v1/papers/attention-is-all-you-need/tasks/'))!.body)).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await call('/api/v1/papers/no-such-paper/tasks/'))!.status).toBe(404);
  });
});
