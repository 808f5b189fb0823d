import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express5';
import { createMemorySource, type Paper } from '@paperlist/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { papersRouter } from '../src/index.js';

// Two catalogues told apart by every paper: a response mixing them would be a torn page.
const catalogue = (tag: 'old' | 'new', size: number): Paper[] =>
  Array.from({ length: size }, (_, i) => ({
    id: `${tag}-${String(i).padStart(4, '0')}`,
    arxiv_id: null,
    nips_id: null,
    url_abs: `https://example.org/${tag}/${i}`,
    url_pdf: `https://example.org/${tag}/${i}.pdf`,
    title: `${tag} paper ${i} about learning`,
    abstract: `A ${tag} abstract.`,
    authors: [`Author ${i % 17}`],
    published: i % 5 === 0 ? null : `20${String(10 + (i % 10))}-01-0${1 + (i % 9)}`,
    conference: null,
    conference_url_abs: null,
    conference_url_pdf: null,
    proceeding: null,
  }));

const OLD = catalogue('old', 1200);
const NEW = catalogue('new', 900);
const source = createMemorySource(OLD);
let url = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const app = express();
  app.use('/api/v1', papersRouter({ source }));
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/papers/`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(() => close());

it('answers every request wholly from the old or the new catalogue while it is swapped', async () => {
  const queries = ['', '?q=learning&ordering=-published', '?page=last&items_per_page=37', '?q=paper+1&page=2&items_per_page=5', '?ordering=title&page=3'];
  let swaps = 0;
  let swapping = true;
  const swapper = (async () => {
    while (swapping) {
      source.replace(swaps % 2 === 0 ? NEW : OLD);
      swaps++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const seen = { old: 0, new: 0 };
  await Promise.all(
    Array.from({ length: 8 }, async (_, worker) => {
      for (let i = 0; i < 40; i++) {
        const query = queries[(worker + i) % queries.length]!;
        const response = await fetch(url + query);
        expect(response.status).toBe(200);
        const body = (await response.json()) as { count: number; results: Paper[] };
        const tags = new Set(body.results.map((paper) => paper.id.split('-')[0]));
        expect(tags.size, JSON.stringify([...tags])).toBeLessThanOrEqual(1);
        const tag = [...tags][0] as 'old' | 'new' | undefined;
        if (tag === undefined) continue;
        seen[tag]++;
        // Without a search, the count is the size of the catalogue the results came from.
        if (!query.includes('q=')) expect(body.count).toBe((tag === 'old' ? OLD : NEW).length);
      }
    }),
  );
  swapping = false;
  await swapper;
  expect(swaps).toBeGreaterThan(10);
  expect(seen.old).toBeGreaterThan(0);
  expect(seen.new).toBeGreaterThan(0);
});
