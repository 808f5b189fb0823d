import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaperlistOptionsError, venueKey } from '@paperlist/core';
import { createPostgresSource, migrate, schemaVersion, MIGRATIONS, SCHEMA_VERSION } from '../src/index.js';
import { schemaNames } from '../src/schema.js';
import { noteServerSkip } from './helpers.js';
import { targets } from './targets.js';

noteServerSkip('migrations.test.ts');

for (const target of targets()) {
  describe(`migrations on ${target.name}`, () => {
    beforeAll(() => target.open());
    afterAll(() => target.close());

    it('are versioned and idempotent', async () => {
      const schema = target.schema();
      expect(await schemaVersion(target.db(), { schema })).toBeNull();
      expect(await migrate(target.db(), { schema })).toEqual({ schema, applied: [1, 2, 3, 4, 5, 6, 7, 8], version: SCHEMA_VERSION });
      expect(await migrate(target.db(), { schema })).toEqual({ schema, applied: [], version: SCHEMA_VERSION });
      expect(await schemaVersion(target.db(), { schema })).toBe(SCHEMA_VERSION);
      const { rows } = await target.db().query(`SELECT version, name FROM "${schema}".paperlist_migrations`);
      expect(rows).toEqual([
        { version: 1, name: 'papers, words, state and indexes' },
        { version: 2, name: 'trigram index for the title filter' },
        { version: 3, name: 'proceeding and venue indexes' },
        { version: 4, name: 'tasks and methods of papers' },
        { version: 5, name: 'change log for following sources' },
        { version: 6, name: 'posting lists for counts and relevance' },
        { version: 7, name: 'facet facts for facet counts' },
        { version: 8, name: 'posting lists through writes' },
      ]);
      // pg_trgm is there (loaded in PGlite, installable on the server): the filters' indexes exist.
      const indexes = await target.db().query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE '%trgm' ORDER BY 1`, [schema]);
      expect(indexes.rows).toEqual([{ indexname: 'papers_title_trgm' }]);
    });

    it('step 3 adds the filters\' indexes to a schema of step 1, and the venue key agrees with the core', async () => {
      const schema = target.schema();
      await target.db().query(`CREATE SCHEMA "${schema}"`);
      const names = schemaNames(schema);
      await target.db().query(`CREATE TABLE ${names.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      for (const statement of MIGRATIONS[0]!.up(names)) await target.db().query(statement);
      await target.db().query(`INSERT INTO ${names.migrations} (version, name) VALUES (1, 'papers, words, state and indexes')`);
      expect(await migrate(target.db(), { schema })).toEqual({ schema, applied: [2, 3, 4, 5, 6, 7, 8], version: SCHEMA_VERSION });
      const { rows: indexes } = await target.db().query(`SELECT indexname FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`, [schema]);
      expect((indexes as { indexname: string }[]).map((row) => row.indexname)).toEqual(expect.arrayContaining(['papers_proceeding', 'papers_venue']));
      const samples = ['acl-2020-7', 'NeurIPS 2018 12', 'nlpcovid19-2020-7', 'lrec-2016', 'x--12-3', 'x1-2', '2020', '-2020', 'Ws_2015_9', 'ÉCOLE 2020', 'a-1b-2', ''];
      const { rows } = await target.db().query(
        `SELECT "${schema}".paperlist_venue_key(p) AS key FROM unnest($1::text[]) WITH ORDINALITY u(p, i) ORDER BY i`,
        [samples],
      );
      expect((rows as { key: string | null }[]).map((row) => row.key)).toEqual(samples.map(venueKey));
    });

    it('serialise concurrent runs (servers starting together)', async () => {
      const schema = target.schema();
      const results = await Promise.all([1, 2, 3].map(() => migrate(target.db(), { schema })));
      expect(results.map((result) => result.applied).sort()).toEqual([[], [], [1, 2, 3, 4, 5, 6, 7, 8]]);
    });

    it('refuse a schema newer than the package', async () => {
      const schema = target.schema();
      await migrate(target.db(), { schema });
      await target.db().query(`INSERT INTO "${schema}".paperlist_migrations (version, name) VALUES (99, 'future')`);
      await expect(migrate(target.db(), { schema })).rejects.toThrow(/version 99, newer than this/);
      await expect(createPostgresSource({ db: target.db(), schema })).rejects.toThrow(/version 99, newer than this/);
    });

    it('must run before a source opens', async () => {
      const schema = target.schema();
      await expect(createPostgresSource({ db: target.db(), schema })).rejects.toThrow(/run migrate\(db, \{ schema \}\) first/);
    });
  });
}

describe('migrations without pg_trgm', () => {
  it('skip the trigram indexes; the filters still answer (from the table)', async () => {
    const db = new PGlite(); // no extensions loaded
    try {
      expect((await migrate(db, { schema: 'plain' })).applied).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const indexes = await db.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'plain' AND indexname LIKE '%trgm'`);
      expect(indexes.rows).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('createPostgresSource options', () => {
  const db = { query: () => Promise.resolve({ rows: [] }) };
  it.each<[string, object]>([
    ['a db', { db: {} }],
    ['a readDb', { db, readDb: 42 }],
    ['statementTimeoutMs', { db, statementTimeoutMs: 0 }],
    ['statementTimeoutMs', { db, statementTimeoutMs: 1.5 }],
    ['count.mode', { db, count: { mode: 'approximate' } }],
    ['count.threshold', { db, count: { mode: 'estimate-above', threshold: -1 } }],
    ['versionTtlMs', { db, versionTtlMs: Number.NaN }],
    ['schema', { db, schema: '' }],
    ['schema', { db, schema: 'x'.repeat(64) }],
  ])('checks %s at construction', async (_name, options) => {
    await expect(createPostgresSource(options as never)).rejects.toThrow(PaperlistOptionsError);
  });
});
