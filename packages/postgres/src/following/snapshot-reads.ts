import type { AnnotationMap, MethodRecord, Paper, PaperAnnotations, PaperChange } from '@paperlist/core';
import { queryRows, withTransaction, type Queryable } from '../db.js';
import { annotationTables } from '../annotations-sql.js';
import { changeLogNames } from '../change-log.js';
import { toPaper, type PaperRow } from '../postgres-source.js';
import { PAPER_COLUMNS, type SchemaNames } from '../schema.js';

/*
 * What a following source reads from PostgreSQL, each read in one snapshot (a REPEATABLE READ
 * transaction, or a single statement), so
 * that the papers it reads are exactly those of the change-log sequence read with them: nothing
 * missed, nothing applied twice.
 */

/** Where the change log stands, as one snapshot sees it. */
export interface LogHead {
  /** The catalogue's identity (`paperlist_state.catalogue`): a new one means a recreated schema. */
  catalogue: string;
  /** The newest sequence in the log (0 when it is empty). */
  top: number;
  /** The highest sequence pruned from the log: a follower behind it must reload. */
  prunedThrough: number;
}

/** Runs `callback` in a read-only REPEATABLE READ transaction: every statement sees one snapshot. */
export function withSnapshot<T>(db: Queryable, callback: (tx: Queryable) => Promise<T>): Promise<T> {
  return withTransaction(db, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    return callback(tx);
  });
}

/** The log's head, in one statement (one snapshot even outside a transaction). */
export async function readHead(db: Queryable, names: SchemaNames): Promise<LogHead> {
  const log = changeLogNames(names);
  const [row] = await queryRows<{ catalogue: string; top: string | null; pruned: string }>(
    db,
    `SELECT catalogue, (SELECT max(seq) FROM ${log.table})::text AS top, changes_pruned_through::text AS pruned FROM ${names.state}`,
  );
  if (row === undefined) throw new Error(`paperlist: ${names.state} has no row; run migrate() again`);
  return { catalogue: row.catalogue, top: Number(row.top ?? 0), prunedThrough: Number(row.pruned) };
}

/** The tasks and methods of every paper, by id. */
export async function readAnnotations(tx: Queryable, names: SchemaNames): Promise<AnnotationMap> {
  const { tasks, methods } = annotationTables(names);
  const map = new Map<string, PaperAnnotations>();
  const entry = (id: string) => {
    let found = map.get(id);
    if (found === undefined) map.set(id, (found = { tasks: [], methods: [] }));
    return found;
  };
  const taskRows = await queryRows<{ id: string; names: string[] }>(tx, `SELECT paper_id AS id, array_agg(task_name ORDER BY position) AS names FROM ${tasks} GROUP BY paper_id`);
  for (const row of taskRows) entry(row.id).tasks = row.names;
  const methodRows = await queryRows<{ id: string; methods: string[] }>(tx, `SELECT paper_id AS id, array_agg(method ORDER BY position) AS methods FROM ${methods} GROUP BY paper_id`);
  for (const row of methodRows) entry(row.id).methods = row.methods.map((text) => JSON.parse(text) as MethodRecord);
  return map;
}

/**
 * Every paper, read through a cursor `batchSize` rows at a time (the catalogue is never held
 * as rows). Must be consumed inside the snapshot's transaction.
 */
export async function* streamPapers(tx: Queryable, names: SchemaNames, batchSize: number): AsyncGenerator<Paper> {
  await tx.query(`DECLARE paperlist_follow NO SCROLL CURSOR FOR SELECT ${PAPER_COLUMNS.join(', ')} FROM ${names.papers}`);
  try {
    for (;;) {
      const rows = await queryRows<PaperRow>(tx, `FETCH ${batchSize} FROM paperlist_follow`);
      for (const row of rows) yield toPaper(row);
      if (rows.length < batchSize) return;
    }
  } finally {
    await tx.query('CLOSE paperlist_follow').catch(() => {});
  }
}

/** What the log holds after a sequence: nothing, changes to apply, or a reason to reload. */
export type LogRange =
  | { kind: 'none'; head: LogHead }
  | { kind: 'reload'; head: LogHead; why: string }
  | { kind: 'changes'; head: LogHead; upTo: number; changes: PaperChange[] };

/**
 * The net changes of the log after `after`: for each paper id logged, its row as it is now (an
 * upsert) or its absence (a delete), read in the same snapshot as the range's end. A reload
 * marker, a pruned gap, another catalogue, or more than `reloadAbove` papers: a reload instead.
 * One statement, so one snapshot and one round trip: on a server answering requests, each round
 * trip waits its turn on the event loop (a transaction of six statements took about 65 ms a change
 * under ten clients at 498k papers), and the change is visible only after them.
 */
export async function readRange(db: Queryable, names: SchemaNames, after: number, catalogue: string, reloadAbove: number): Promise<LogRange> {
  const log = changeLogNames(names);
  const rows = await queryRows<PaperRow & { catalogue: string; top: string | null; pruned: string; reload: boolean; papers: string; changed: string | null; present: boolean | null }>(
    db,
    `SELECT h.catalogue, h.top, h.pruned, s.reload, s.papers, c.*
      FROM (SELECT catalogue, (SELECT max(seq) FROM ${log.table})::text AS top, changes_pruned_through::text AS pruned FROM ${names.state}) h
      CROSS JOIN (SELECT coalesce(bool_or(op = 'reload'), false) AS reload, count(DISTINCT paper_id)::text AS papers FROM ${log.table} WHERE seq > $1) s
      LEFT JOIN LATERAL (
        SELECT d.id AS changed, p.id IS NOT NULL AS present, ${PAPER_COLUMNS.map((column) => `p.${column}`).join(', ')}
          FROM (SELECT DISTINCT paper_id AS id FROM ${log.table} WHERE seq > $1) d LEFT JOIN ${names.papers} p ON p.id = d.id
          -- Read the rows only when they are applied (else a reload reads everything anyway).
          WHERE h.catalogue = $2 AND h.pruned::int8 <= $1 AND NOT s.reload AND s.papers::int8 <= $3
      ) c ON true
      ORDER BY c.changed`,
    [after, catalogue, reloadAbove],
  );
  const first = rows[0];
  if (first === undefined) throw new Error(`paperlist: ${names.state} has no row; run migrate() again`);
  const head: LogHead = { catalogue: first.catalogue, top: Number(first.top ?? 0), prunedThrough: Number(first.pruned) };
  if (head.catalogue !== catalogue) return { kind: 'reload', head, why: 'the schema was recreated' };
  if (head.prunedThrough > after) return { kind: 'reload', head, why: `changes up to ${head.prunedThrough} were pruned from the log` };
  if (head.top <= after) return { kind: 'none', head };
  if (first.reload) return { kind: 'reload', head, why: 'the catalogue was replaced' };
  if (Number(first.papers) > reloadAbove) return { kind: 'reload', head, why: `${first.papers} papers changed` };
  const changes = rows
    .filter((row) => row.changed !== null)
    .map((row): PaperChange => (row.present === true ? { op: 'upsert', paper: toPaper(row) } : { op: 'delete', id: row.changed! }));
  return { kind: 'changes', head, upTo: head.top, changes };
}
