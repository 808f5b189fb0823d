import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type ExampleServer } from './server.js';

let server: ExampleServer;
beforeAll(async () => {
  server = await startServer(0);
});
afterAll(() => server.close());

it('serves the sample at /api/v1/papers/', async () => {
  const res = await fetch(`${server.url}/api/v1/papers/?q=learning&items_per_page=5`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  const page = (await res.json()) as { count: number; next: string | null; previous: null; results: { id: string }[] };
  expect(page.count).toBeGreaterThan(5);
  expect(page.results).toHaveLength(5);
  expect(page.next).toBe(`${server.url}/api/v1/papers/?items_per_page=5&page=2&q=learning`);
  expect(page.previous).toBeNull();
});
