import { describe, it } from 'vitest';
import { definePaperSourceSuite } from '@paperlist/conformance';
import { dropSchema, noteServerSkip, randomSchema, serverPool, sourceWith, TEST_DATABASE_URL } from './helpers.js';

noteServerSkip('source-suite.server.test.ts');

if (TEST_DATABASE_URL === undefined) {
  describe.skip('PaperSource suite on a PostgreSQL server (PAPERLIST_TEST_DATABASE_URL is not set)', () => {
    it('needs PAPERLIST_TEST_DATABASE_URL', () => {});
  });
} else {
  // The shared PaperSource suite on the real server, each catalogue in a schema of its own.
  definePaperSourceSuite({
    name: 'postgres on a server (pg.Pool)',
    async create(papers, annotations) {
      const pool = serverPool();
      const schema = randomSchema();
      const source = await sourceWith(pool, schema, papers, {}, annotations);
      return Object.assign(source, {
        async close() {
          await dropSchema(pool, schema);
          await pool.end();
        },
      });
    },
  });
}
