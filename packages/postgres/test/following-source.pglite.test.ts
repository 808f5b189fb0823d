import { describe, expect, it } from 'vitest';
import { definePaperSourceSuite } from '@paperlist/conformance';
import { loadSamplePapers } from '@paperlist/core/sample';
import { createFollowingSource, importPapers, migrate } from '../src/index.js';
import { newPGlite } from './helpers.js';
import { eventually, served } from './following-helpers.js';

// The shared PaperSource suite for a follower of an in-process database: PGlite's own listen()
// wakes it (one session, so the "connection" never drops; the server tests cover that).
definePaperSourceSuite({
  name: 'following source on PGlite',
  async create(papers, annotations) {
    const db = await newPGlite();
    await migrate(db, { schema: 'follow' });
    await importPapers(db, papers, { schema: 'follow', ...(annotations === undefined ? {} : { annotations }) });
    const source = await createFollowingSource(db, { schema: 'follow' });
    const close = source.close.bind(source);
    return Object.assign(source, {
      async close() {
        await close();
        await db.close();
      },
    });
  },
});

describe('following source on PGlite', () => {
  it('is woken by NOTIFY: an import shows without a poll', async () => {
    const db = await newPGlite();
    const papers = (await loadSamplePapers()).slice(0, 50);
    await migrate(db, { schema: 'follow' });
    await importPapers(db, papers.slice(0, 40), { schema: 'follow' });
    // A poll so rare that only the notification can bring the change within the deadline.
    const source = await createFollowingSource(db, { schema: 'follow', pollIntervalMs: 3_600_000 });
    try {
      // Up to date as soon as it is loaded: the load covers what was notified before it began.
      expect(source.state()).toMatchObject({ connected: true, papers: 40, lagMs: 0, lastError: null });
      await importPapers(db, papers.slice(40), { schema: 'follow', upsert: true });
      await eventually(async () => expect(source.size).toBe(50));
      const fresh = await createFollowingSource(db, { schema: 'follow' });
      expect(await served(source)).toEqual(await served(fresh));
      expect(source.version()).toBe(fresh.version());
      await fresh.close();
    } finally {
      await source.close();
      await db.close();
    }
  }, 120_000);
});
