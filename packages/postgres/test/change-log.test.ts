import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paper } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { importPapers, migrate, type Queryable } from '../src/index.js';
import { noteServerSkip } from './helpers.js';
import { targets } from './targets.js';

noteServerSkip('change-log.test.ts');

interface LogRow {
  seq: number;
  paper_id: string | null;
  op: string;
}

async function logAfter(db: Queryable, schema: string, after: number): Promise<LogRow[]> {
  const { rows } = await db.query(`SELECT seq::int AS seq, paper_id, op FROM "${schema}".paperlist_changes WHERE seq > $1 ORDER BY seq`, [after]);
  return rows as LogRow[];
}

async function top(db: Queryable, schema: string): Promise<number> {
  const { rows } = await db.query(`SELECT coalesce(max(seq), 0)::int AS top FROM "${schema}".paperlist_changes`);
  return (rows[0] as { top: number }).top;
}

const opsOf = (rows: LogRow[]) => rows.map((row) => `${row.op}:${row.paper_id ?? ''}`);

for (const target of targets()) {
  describe(`the change log on ${target.name}`, () => {
    let papers: Paper[];
    beforeAll(async () => {
      await target.open();
      papers = (await loadSamplePapers()).slice(0, 40);
    });
    afterAll(() => target.close());

    it('logs each writer: a load, upserts, deletes, renames, replaces (swapped and in place), tasks and methods', async () => {
      const db = target.db();
      const schema = target.schema();
      await migrate(db, { schema });
      const [a, b, c, d] = papers.map((paper) => paper.id) as [string, string, string, string];
      // Each step: what it does, and the log rows it must add.
      const steps: [string, () => Promise<unknown>, string[]][] = [
        ['a load into the empty table: one reload marker, not a row per paper', () => importPapers(db, papers.slice(0, 20), { schema }), ['reload:']],
        [
          'an upsert of two changed papers and one unchanged: the changed ones',
          () => importPapers(db, [{ ...papers[0]!, title: 'Changed 0' }, { ...papers[1]!, title: 'Changed 1' }, papers[2]!], { schema, upsert: true }),
          [`upsert:${a}`, `upsert:${b}`],
        ],
        ['a new paper', () => importPapers(db, [papers[25]!], { schema, upsert: true }), [`upsert:${papers[25]!.id}`]],
        ['a removal', () => importPapers(db, [], { schema, upsert: true, remove: [c] }), [`delete:${c}`]],
        ['a removal of an absent id: nothing', () => importPapers(db, [], { schema, upsert: true, remove: ['absent'] }), []],
        ['an update of an id by SQL: the old id deleted, the new one written', () => db.query(`UPDATE "${schema}".papers SET id = 'renamed' WHERE id = $1`, [d]), [`delete:${d}`, 'upsert:renamed']],
        ['a replace by swap: a reload marker', () => importPapers(db, papers.slice(10, 30), { schema, replace: true }), ['reload:']],
        ['a replace in place: a reload marker', () => importPapers(db, papers.slice(5, 30), { schema, replace: true, swap: false }), ['reload:']],
        [
          'an upsert with tasks and methods: the paper, and a reload (the engine takes annotations with a catalogue)',
          () => importPapers(db, [papers[6]!], { schema, upsert: true, annotations: new Map([[papers[6]!.id, { tasks: ['Parsing'], methods: [] }]]) }),
          ['reload:'],
        ],
        ['the log keeps working after the swap: an upsert', () => importPapers(db, [{ ...papers[7]!, title: 'After the swap' }], { schema, upsert: true }), [`upsert:${papers[7]!.id}`]],
      ];
      for (const [what, run, expected] of steps) {
        const before = await top(db, schema);
        await run();
        expect(opsOf(await logAfter(db, schema, before)), what).toEqual(expected);
      }
    });

    it('prunes rows older than changes_keep and records the highest sequence pruned', async () => {
      const db = target.db();
      const schema = target.schema();
      await migrate(db, { schema });
      await importPapers(db, papers.slice(0, 5), { schema });
      await importPapers(db, [{ ...papers[0]!, title: 'One' }], { schema, upsert: true });
      const old = await top(db, schema);
      // Nothing is kept longer than the statement, and the last prune was long ago: the next writer prunes.
      await db.query(`UPDATE "${schema}".paperlist_state SET changes_keep = '0 seconds', changes_pruned_at = '-infinity'`);
      await importPapers(db, [{ ...papers[1]!, title: 'Two' }], { schema, upsert: true });
      expect(opsOf(await logAfter(db, schema, 0))).toEqual([`upsert:${papers[1]!.id}`]);
      const { rows } = await db.query(`SELECT changes_pruned_through::int AS pruned FROM "${schema}".paperlist_state`);
      expect(rows).toEqual([{ pruned: old }]);
      // Pruned a moment ago: the next writer leaves the log alone.
      await importPapers(db, [{ ...papers[2]!, title: 'Three' }], { schema, upsert: true });
      expect(opsOf(await logAfter(db, schema, 0))).toEqual([`upsert:${papers[1]!.id}`, `upsert:${papers[2]!.id}`]);
    });
  });
}
