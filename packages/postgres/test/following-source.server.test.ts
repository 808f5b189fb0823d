import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { toPaper, type AnnotationMap, type Paper } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { definePaperSourceSuite } from '@paperlist/conformance';
import { createFollowingSource, importPapers, migrate, type FollowEvent, type FollowingSource } from '../src/index.js';
import { dropSchema, noteServerSkip, randomSchema, serverPool, TEST_DATABASE_URL } from './helpers.js';
import { eventually, served } from './following-helpers.js';

noteServerSkip('following-source.server.test.ts');

/** A pool whose lost idle connections (terminated backends) are not fatal. */
/**
 * Deadlines (not speed assertions): each load or write of a follower builds an index on a thread
 * of its own, seconds on a busy machine.
 */
const CONVERGENCE_MS = 60_000;
const TEST_MS = 300_000;

/** The test server's URL with another user (the URL's user wins over a pool's `user` option). */
function urlAs(user: string): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.username = user;
  url.password = '';
  return url.toString();
}

function quietPool(config: pg.PoolConfig = {}): pg.Pool {
  const pool = serverPool(config);
  pool.on('error', () => {});
  return pool;
}

if (TEST_DATABASE_URL === undefined) {
  describe.skip('following source on a PostgreSQL server (PAPERLIST_TEST_DATABASE_URL is not set)', () => {
    it('needs PAPERLIST_TEST_DATABASE_URL', () => {});
  });
} else {
  // The shared PaperSource suite: the catalogue imported into PostgreSQL, served by a follower
  // (its writes go through PostgreSQL and come back through the change log).
  definePaperSourceSuite({
    name: 'following source on a server (pg.Pool)',
    async create(papers, annotations) {
      const pool = quietPool();
      const schema = randomSchema();
      await migrate(pool, { schema });
      await importPapers(pool, papers, { schema, ...(annotations === undefined ? {} : { annotations }) });
      const source = await createFollowingSource(pool, { schema });
      const close = source.close.bind(source);
      return Object.assign(source, {
        async close() {
          await close();
          await dropSchema(pool, schema);
          await pool.end();
        },
      });
    },
  });

  describe('following sources on one database', () => {
    const admin = quietPool();
    const cleanups: (() => Promise<void>)[] = [];
    let sample: Paper[];
    let annotations: AnnotationMap;

    beforeAll(async () => {
      sample = (await loadSamplePapers()).slice(0, 400);
      annotations = new Map([
        [sample[0]!.id, { tasks: ['Image Classification'], methods: [] }],
        [sample[1]!.id, { tasks: ['Machine Translation', 'Parsing'], methods: [] }],
      ]);
    });
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
      await admin.end();
    });

    /** A schema holding the first `count` sample papers (and two papers' tasks). */
    async function catalogue(count = 300): Promise<string> {
      const schema = randomSchema('paperlist_follow');
      cleanups.push(() => dropSchema(admin, schema));
      await migrate(admin, { schema });
      await importPapers(admin, sample.slice(0, count), { schema, annotations });
      return schema;
    }

    /** A follower with a pool of its own (`user`: connect as that role). */
    async function follower(schema: string, options: { user?: string; events?: FollowEvent[]; reloadAbove?: number } = {}): Promise<FollowingSource> {
      const pool = quietPool({ application_name: 'paperlist-follow-test', ...(options.user === undefined ? {} : { connectionString: urlAs(options.user) }) });
      const source = await createFollowingSource(pool, {
        schema,
        ...(options.reloadAbove === undefined ? {} : { reloadAbove: options.reloadAbove }),
        onEvent: (event) => options.events?.push(event),
      });
      cleanups.push(async () => {
        await source.close();
        await pool.end();
      });
      return source;
    }

    /** What a follower loading now serves: every server must come to serve exactly this. */
    async function expected(schema: string): Promise<{ served: Awaited<ReturnType<typeof served>>; version: string }> {
      const pool = quietPool();
      const fresh = await createFollowingSource(pool, { schema });
      try {
        return { served: await served(fresh), version: fresh.version() };
      } finally {
        await fresh.close();
        await pool.end();
      }
    }

    /** Waits until every follower serves what a fresh load serves (the database does not change meanwhile). */
    async function converged(schema: string, ...followers: FollowingSource[]): Promise<void> {
      const want = await expected(schema);
      await eventually(async () => {
        for (const source of followers) {
          expect(await served(source)).toEqual(want.served);
          expect(source.version()).toBe(want.version);
        }
      }, CONVERGENCE_MS);
    }

    /** A role of its own for one follower, whose connections can be cut and refused. */
    async function role(schema: string): Promise<{ name: string; cut(): Promise<void>; restore(): Promise<void> }> {
      const name = `paperlist_follow_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE ROLE ${name} LOGIN`);
      await admin.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${name}`);
      await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${schema}" TO ${name}`);
      const terminate = () => admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [name]);
      cleanups.push(async () => {
        await terminate();
        await admin.query(`DROP OWNED BY ${name}`);
        await admin.query(`DROP ROLE ${name}`);
      });
      return {
        name,
        async cut() {
          await admin.query(`ALTER ROLE ${name} NOLOGIN`);
          await terminate();
        },
        async restore() {
          await admin.query(`ALTER ROLE ${name} LOGIN`);
        },
      };
    }

    const retitled = (paper: Paper, title: string): Paper => ({ ...paper, title });

    it('show every writer\'s changes on every follower; the one that took a write shows it at once', async () => {
      const schema = await catalogue();
      const [a, b] = [await follower(schema), await follower(schema)];
      await converged(schema, a, b);

      // A write through a follower: committed in PostgreSQL, shown by that follower when the call resolves.
      const fresh = sample[350]!;
      expect(await a.write([{ op: 'upsert', paper: fresh }, { op: 'delete', id: sample[2]!.id }])).toEqual({ created: 1, updated: 0, deleted: 1 });
      expect(toPaper((await a.get(fresh.id))!)).toEqual(fresh);
      expect(await a.get(sample[2]!.id)).toBeNull();
      expect(await b.upsert([retitled(sample[3]!, 'Zebra crossings of the mind')])).toEqual({ created: 0, updated: 1, deleted: 0 });
      expect(toPaper((await b.get(sample[3]!.id))!).title).toBe('Zebra crossings of the mind');
      await converged(schema, a, b);

      // importPapers as `paperlist import --upsert` runs it, with a removal.
      await importPapers(admin, [retitled(sample[4]!, 'Upserted by an import'), sample[351]!], { schema, upsert: true, remove: [sample[5]!.id] });
      await converged(schema, a, b);

      // A paper keeps its tasks through writes to it; annotations written by an import reload them.
      await a.upsert([retitled(sample[0]!, 'Still classifying images')]);
      expect(await a.annotations(sample[0]!.id)).toEqual(annotations.get(sample[0]!.id));
      await importPapers(admin, [sample[6]!], { schema, upsert: true, annotations: new Map([[sample[6]!.id, { tasks: ['Parsing'], methods: [] }]]) });
      await eventually(async () => expect(await b.annotations(sample[6]!.id)).toEqual({ tasks: ['Parsing'], methods: [] }));
      await converged(schema, a, b);

      // A replaced catalogue (swapped in, then in place): both followers reload it.
      await importPapers(admin, sample.slice(100, 380), { schema, replace: true });
      await converged(schema, a, b);
      expect(a.size).toBe(280);
      await importPapers(admin, sample.slice(50, 150), { schema, replace: true, swap: false });
      await converged(schema, a, b);
      expect(b.size).toBe(100);
      // And they go on following single changes after the reloads.
      await b.remove([sample[60]!.id]);
      expect(await b.get(sample[60]!.id)).toBeNull();
      await converged(schema, a, b);
    }, TEST_MS);

    it('keep answering when the connection drops, say so, and catch up when it returns', async () => {
      const schema = await catalogue();
      const access = await role(schema);
      const events: FollowEvent[] = [];
      const source = await follower(schema, { user: access.name, events });
      const before = await served(source);
      expect(source.state()).toMatchObject({ connected: true, lastError: null });

      // Backends terminated while changes are made: the follower reconnects by itself and catches up.
      await Promise.all([
        admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [access.name]),
        importPapers(admin, [retitled(sample[10]!, 'Changed while cut off')], { schema, upsert: true }),
      ]);
      await importPapers(admin, [], { schema, upsert: true, remove: [sample[11]!.id] });
      await converged(schema, source);
      expect(events.some((event) => event.type === 'disconnected')).toBe(true);

      // Cut off for good: still answering from what it has, and saying so.
      await access.cut();
      const lost = await eventually(async () => {
        const state = source.state();
        expect(state.connected).toBe(false);
        expect(state.lastError).not.toBeNull();
        return state;
      });
      await importPapers(admin, [retitled(sample[12]!, 'Changed while away'), sample[360]!], { schema, upsert: true, remove: [sample[13]!.id] });
      const stale = await served(source);
      expect(stale.papers.length).toBe(before.papers.length - 1);
      expect(stale.papers.find((paper) => paper.id === sample[12]!.id)?.title).toBe(sample[12]!.title);
      expect(source.state().lastAppliedSequence).toBe(lost.lastAppliedSequence);
      await eventually(async () => expect(source.state().lagMs).toBeGreaterThan(0));

      await access.restore();
      await converged(schema, source);
      await eventually(async () => expect(source.state()).toMatchObject({ connected: true, lagMs: 0, lastError: null }));
    }, TEST_MS);

    it('start again from the database after a restart', async () => {
      const schema = await catalogue();
      const first = await follower(schema);
      await first.upsert([retitled(sample[20]!, 'Before the restart')]);
      await first.close();
      await importPapers(admin, [retitled(sample[21]!, 'While stopped'), sample[370]!], { schema, upsert: true });
      const second = await follower(schema);
      await converged(schema, second);
      expect(toPaper((await second.get(sample[20]!.id))!).title).toBe('Before the restart');
      await importPapers(admin, [retitled(sample[22]!, 'After the restart')], { schema, upsert: true });
      await converged(schema, second);
    }, TEST_MS);

    it('reload when changes they missed were pruned from the log, or when too many papers changed', async () => {
      const schema = await catalogue();
      const access = await role(schema);
      const events: FollowEvent[] = [];
      const source = await follower(schema, { user: access.name, events });
      await access.cut();
      await eventually(async () => expect(source.state().connected).toBe(false));
      await importPapers(admin, [retitled(sample[30]!, 'Missed, then pruned')], { schema, upsert: true });
      await admin.query(`UPDATE "${schema}".paperlist_state SET changes_keep = '0 seconds', changes_pruned_at = '-infinity'`);
      await importPapers(admin, [retitled(sample[31]!, 'Still in the log')], { schema, upsert: true });
      const { rows } = await admin.query(`SELECT changes_pruned_through::int AS pruned FROM "${schema}".paperlist_state`);
      expect((rows[0] as { pruned: number }).pruned).toBeGreaterThan(source.state().lastAppliedSequence);
      await access.restore();
      await converged(schema, source);
      expect(events.filter((event) => event.type === 'loaded').map((event) => (event as { reason: string }).reason)).toEqual([
        'start',
        expect.stringMatching(/pruned/),
      ]);

      const smallEvents: FollowEvent[] = [];
      const small = await follower(schema, { reloadAbove: 2, events: smallEvents });
      await importPapers(admin, sample.slice(40, 45).map((paper) => retitled(paper, `Bulk ${paper.id}`)), { schema, upsert: true });
      await converged(schema, small);
      expect(smallEvents.filter((event) => event.type === 'loaded')).toMatchObject([{ reason: 'start' }, { reason: '5 papers changed' }]);
    }, TEST_MS);
  });
}

