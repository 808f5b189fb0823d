import { describe, expect, it } from 'vitest';
import { readExtensionFilters } from '../filters/extension-params.js';
import { matchesExtensionFilters } from '../filters/reference-filters.js';
import type { Paper } from '../paper.js';
import type { PaperFilters } from '../source.js';
import { methodSlugs, nameSlug, readPwcAnnotations, taskSlugs, type PaperAnnotations } from './annotations.js';

describe('nameSlug', () => {
  it.each([
    ['Image Classification', 'image-classification'],
    ['image-classification', 'image-classification'],
    ['  Q-Learning ', 'q-learning'],
    ['3D Object Detection (Monocular)', '3d-object-detection-monocular'],
    ['Réseau_Neuronal', 'reseau-neuronal'],
    ['Batch  Normalization!!', 'batch-normalization'],
    ['---', ''],
    ['', ''],
  ])('%j → %j', (name, slug) => {
    expect(nameSlug(name)).toBe(slug);
  });
});

const adam = { name: 'Adam', full_name: 'Adam', description: 'An optimizer.', introduced_year: 2014, source_url: 'http://arxiv.org/abs/1412.6980v9', source_title: 'Adam: A Method', code_snippet_url: 'https://github.com/x', main_collection: { name: 'Stochastic Optimization' } };
const adamRecord = { name: 'Adam', full_name: 'Adam', description: 'An optimizer.', introduced_year: 2014, source_url: 'http://arxiv.org/abs/1412.6980v9', source_title: 'Adam: A Method', code_snippet_url: 'https://github.com/x' };
const bare = (name: string) => ({ name, full_name: null, description: null, introduced_year: null, source_url: null, source_title: null, code_snippet_url: null });

describe('readPwcAnnotations', () => {
  it.each<[string, Record<string, unknown>, PaperAnnotations | undefined]>([
    ['none', {}, undefined],
    ['null lists', { tasks: null, methods: null }, undefined],
    ['empty lists', { tasks: [], methods: [] }, undefined],
    ['tasks only', { tasks: ['Image Classification', 'Object Detection'] }, { tasks: ['Image Classification', 'Object Detection'], methods: [] }],
    ['a full method', { methods: [adam] }, { tasks: [], methods: [adamRecord] }],
    ['a method with missing and mistyped fields', { methods: [{ name: 'SGD', introduced_year: '1951', full_name: 3 }] }, { tasks: [], methods: [bare('SGD')] }],
    ['task objects with a name', { tasks: [{ name: 'Translation' }, { id: 'x' }] }, { tasks: ['Translation'], methods: [] }],
    ['bad entries dropped', { tasks: [3, null, '', '!!', 'A'], methods: ['Adam', null, { full_name: 'x' }, { name: 7 }] }, { tasks: ['A'], methods: [] }],
    ['repeats of a slug dropped', { tasks: ['Image Classification', 'image classification'], methods: [bare('Adam'), bare('ADAM')] }, { tasks: ['Image Classification'], methods: [bare('Adam')] }],
    ['not arrays', { tasks: 'Translation', methods: { name: 'Adam' } }, undefined],
  ])('%s', (_name, record, expected) => {
    expect(readPwcAnnotations(record)).toEqual(expected);
  });

  it('slugs of a paper', () => {
    const annotations: PaperAnnotations = { tasks: ['Image Classification', 'Image-Classification', 'Detection'], methods: [bare('Batch Normalization')] };
    expect(taskSlugs(annotations)).toEqual(['image-classification', 'detection']);
    expect(methodSlugs(annotations)).toEqual(['batch-normalization']);
    expect(taskSlugs(undefined)).toEqual([]);
  });
});

describe('task= and method=', () => {
  const read = (pairs: [string, string][]) => {
    const filters: PaperFilters = {};
    const result = readExtensionFilters(pairs, filters, { venueAliases: {} });
    return result.ok ? { filters } : { errors: result.errors };
  };
  it.each<[string, [string, string][], unknown]>([
    ['one task by name', [['task', 'Image Classification']], { filters: { tasks: ['image-classification'] } }],
    ['alternatives, repeats merged, sorted', [['task', 'object-detection|Image Classification|image-classification']], { filters: { tasks: ['image-classification', 'object-detection'] } }],
    ['empty alternatives dropped', [['task', '|a||']], { filters: { tasks: ['a'] } }],
    ['empty value filters nothing', [['task', '  ']], { filters: {} }],
    ['a value without a slug matches nothing', [['method', '!!']], { filters: { methods: ['-'] } }],
    ['the last value wins', [['method', 'adam'], ['method', 'SGD']], { filters: { methods: ['sgd'] } }],
    ['both', [['task', 'a'], ['method', 'b']], { filters: { tasks: ['a'], methods: ['b'] } }],
    ['100 values', [['task', Array.from({ length: 100 }, (_, i) => `t${i}`).join('|')]], { filters: { tasks: Array.from({ length: 100 }, (_, i) => `t${i}`).sort() } }],
    ['101 values', [['task', Array.from({ length: 101 }, (_, i) => `t${i}`).join('|')]], { errors: { task: ['Ensure this value has at most 100 alternatives.'] } }],
    ['101 methods', [['method', Array.from({ length: 101 }, (_, i) => `m${i}`).join('|')]], { errors: { method: ['Ensure this value has at most 100 alternatives.'] } }],
  ])('%s', (_name, pairs, expected) => {
    expect(read(pairs)).toEqual(expected);
  });

  const paper = { id: 'p', arxiv_id: null, nips_id: null, url_abs: '', url_pdf: '', title: 'T', abstract: '', authors: [], published: null, conference: null, conference_url_abs: null, conference_url_pdf: null, proceeding: null } satisfies Paper;
  const notes: PaperAnnotations = { tasks: ['Image Classification', 'Detection'], methods: [bare('Adam')] };
  it.each<[string, PaperFilters, PaperAnnotations | undefined, boolean]>([
    ['a task of the paper', { tasks: ['detection'] }, notes, true],
    ['one of several', { tasks: ['segmentation', 'image-classification'] }, notes, true],
    ['no task of the paper', { tasks: ['segmentation'] }, notes, false],
    ['a paper without annotations', { tasks: ['detection'] }, undefined, false],
    ['a method', { methods: ['adam'] }, notes, true],
    ['a task and a method: both must match', { tasks: ['detection'], methods: ['sgd'] }, notes, false],
  ])('reference: %s', (_name, filters, annotations, expected) => {
    expect(matchesExtensionFilters(paper, [], filters, annotations)).toBe(expected);
  });
});
