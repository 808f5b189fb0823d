import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySource, type PaperSource } from '@paperlist/core';
import { createRequestListener } from '@paperlist/core/node';
import { rawRequest, SOURCE_FIXTURE, type RawResponse } from '@paperlist/conformance';
import { sourceWith } from './helpers.js';
import { targets } from './targets.js';

// Issue 18 item 4: ids and parameter values PostgreSQL cannot store (U+0000, lone UTF-16
// surrogates, over-long text) are answered as the memory source answers them (404/400/an
// empty page), never 503. Each parameter of the list, the id path and the cursor, table-driven,
// over real HTTP against both sources side by side.

/** base64url of a cursor's JSON (`[version, ordering, values]`), as the core writes them. */
const cursor = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/** Raw query values (already percent-encoded as a client would send them). */
const VALUES: readonly [name: string, raw: string][] = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['lone high surrogate (CESU-8 bytes)', '%ED%A0%80'],
  ['lone low surrogate inside', 'x%ED%B0%80y'],
  ['over-long (4,000 characters)', 'x'.repeat(4000)],
  ['over-long with NUL at the end', `${'y'.repeat(3000)}%00`],
];

/** Every list parameter that reaches the source as text. */
const PARAMETERS = ['q', 'title', 'abstract', 'author', 'proceeding', 'venue', 'task', 'method', 'arxiv_id', 'id'] as const;

/** Cursors holding values no stored paper has: decoded by the core, which must refuse them before any source is asked. */
const CURSORS: readonly [name: string, ordering: string, value: string][] = [
  ['NUL id', 'id', cursor('[1,"id",["\\u0000"]]')],
  ['lone surrogate id', 'id', cursor('[1,"id",["\\ud800"]]')],
  ['lone low surrogate title', 'title', cursor('[1,"title,id",["\\udc00x","a"]]')],
  ['over-long id', 'id', cursor(`[1,"id",["${'z'.repeat(4000)}"]]`)],
  ['over-long title', 'title', cursor(`[1,"title,id",["${'z'.repeat(4000)}","a"]]`)],
];

async function listen(source: PaperSource): Promise<{ server: Server; origin: string }> {
  const server = createServer(createRequestListener({ source, mount: '/api/v1', allowedHosts: ['127.0.0.1'] }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** What a client sees of an answer: the status, and the body (whose links name the same origin on both). */
const seen = (response: RawResponse, origin: string) => ({ status: response.status, body: response.text.replaceAll(origin, 'ORIGIN') });

for (const target of targets()) {
  describe(`values PostgreSQL cannot store, on ${target.name}: the memory source's answers, never 503`, () => {
    let memory: { server: Server; origin: string };
    let postgres: { server: Server; origin: string };
    beforeAll(async () => {
      await target.open();
      memory = await listen(createMemorySource([...SOURCE_FIXTURE]));
      postgres = await listen(await sourceWith(target.db(), target.schema(), SOURCE_FIXTURE));
    });
    afterAll(async () => {
      for (const { server } of [memory, postgres]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await target.close();
    });

    const both = async (path: string) => {
      const [want, got] = await Promise.all([rawRequest(memory.origin, path), rawRequest(postgres.origin, path)]);
      return { want: seen(want, memory.origin), got: seen(got, postgres.origin) };
    };

    const cases = PARAMETERS.flatMap((parameter) =>
      VALUES.flatMap(([name, raw]) => [
        [`${parameter}= ${name}`, `/api/v1/papers/?${parameter}=${raw}&ordering=id`],
        // A value beside one that matches, and in a batch of `|` alternatives.
        [`${parameter}= ${name}, with q`, `/api/v1/papers/?q=attention&${parameter}=${raw}`],
        [`${parameter}= ${name} in a batch`, `/api/v1/papers/?${parameter}=${raw}%7Cattention&ordering=-published`],
      ]),
    );
    it.each(cases)('list %s', async (_name, path) => {
      const { want, got } = await both(path);
      expect(got).toEqual(want);
      expect([200, 400, 404]).toContain(got.status);
    });

    it.each(VALUES)('id path: %s', async (_name, raw) => {
      for (const path of [`/api/v1/papers/${raw}/`, `/api/v1/papers/${raw}/tasks/`, `/api/v1/papers/${raw}/methods/`]) {
        const { want, got } = await both(path);
        expect(got, path).toEqual(want);
        expect(got.status, path).toBe(want.status === 400 ? 400 : 404);
      }
    });

    it.each(CURSORS)('cursor: %s', async (_name, ordering, value) => {
      const path = `/api/v1/papers/?cursor=${value}&ordering=${ordering}`;
      const { want, got } = await both(path);
      expect(got).toEqual(want);
      expect([200, 404]).toContain(got.status);
    });

    it('answers the same page for a storable value on both sources (the comparison can tell them apart)', async () => {
      const { want, got } = await both('/api/v1/papers/?q=attention&ordering=id');
      expect(got).toEqual(want);
      expect(JSON.parse(got.body).count).toBeGreaterThan(0);
    });
  });
}
