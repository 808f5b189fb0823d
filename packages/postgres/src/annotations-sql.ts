import { nameSlug, normalizeAnnotations, type AnnotationMap, type MethodRecord, type PaperAnnotations } from '@paperlist/core';
import type { Queryable } from './db.js';
import type { Migration } from './migration.js';
import { qualified, type SchemaNames } from './schema.js';
import { isUnstorable } from './unstorable-text.js';

/*
 * The tasks and methods of papers (from the Papers with Code dump), beside `papers` in two side
 * tables keyed by paper id: a paper's rows go with it. The tables have no foreign key to `papers`
 * (a catalogue replaced by swapping tables would drop it); the importer keeps them consistent in
 * its own transaction instead: a replaced catalogue replaces them, a deleted paper's rows are
 * deleted with it, and written papers get the rows of the annotations given with them.
 */

/** The side tables' names. */
export function annotationTables(names: SchemaNames): { tasks: string; methods: string } {
  return { tasks: qualified(names, 'paper_tasks'), methods: qualified(names, 'paper_methods') };
}

/**
 * Schema step 4: `paper_tasks(paper_id, position, task_slug, task_name)` and
 * `paper_methods(paper_id, position, method_slug, method)` (`method`: the `MethodRecord` as JSON
 * text), each with an index by slug (the `task=`/`method=` filters) and the primary key by
 * paper (a paper's annotations, in order).
 */
export const ANNOTATIONS_MIGRATION: Migration = {
  version: 4,
  name: 'tasks and methods of papers',
  up: (n) => {
    const { tasks, methods } = annotationTables(n);
    return [
      `CREATE TABLE ${tasks} (
        paper_id text COLLATE "C" NOT NULL,
        position int4 NOT NULL,
        task_slug text COLLATE "C" NOT NULL,
        task_name text NOT NULL,
        PRIMARY KEY (paper_id, position)
      )`,
      `CREATE INDEX paper_tasks_slug ON ${tasks} (task_slug, paper_id)`,
      `CREATE TABLE ${methods} (
        paper_id text COLLATE "C" NOT NULL,
        position int4 NOT NULL,
        method_slug text COLLATE "C" NOT NULL,
        method text NOT NULL,
        PRIMARY KEY (paper_id, position)
      )`,
      `CREATE INDEX paper_methods_slug ON ${methods} (method_slug, paper_id)`,
    ];
  },
};

/**
 * The conditions of `task=`/`method=`: one of the paper's slugs is one of the values (through the
 * slug indexes). `add` binds a parameter and answers its placeholder. A filter whose values
 * cannot be stored matches nothing.
 */
export function annotationConditions(names: SchemaNames, tasks: readonly string[] | undefined, methods: readonly string[] | undefined, add: (value: unknown) => string): string[] {
  const parts: string[] = [];
  const { tasks: taskTable, methods: methodTable } = annotationTables(names);
  for (const [values, table, column] of [
    [tasks, taskTable, 'task_slug'],
    [methods, methodTable, 'method_slug'],
  ] as const) {
    if (values === undefined) continue;
    const storable = values.filter((value) => !isUnstorable(value));
    if (storable.length === 0) return ['FALSE'];
    parts.push(`id IN (SELECT a.paper_id FROM ${table} a WHERE a.${column} = ANY(${add(storable)}::text[]))`);
  }
  return parts;
}

/** A row of {@link annotationsStatement}. */
export interface AnnotationsRow {
  found: boolean;
  tasks: string[] | null;
  methods: string[] | null;
}

/** One statement reading whether paper `$1` exists, and its annotations in order. */
export function annotationsStatement(names: SchemaNames): string {
  const { tasks, methods } = annotationTables(names);
  return `SELECT EXISTS (SELECT 1 FROM ${names.papers} WHERE id = $1) AS found,
    (SELECT array_agg(task_name ORDER BY position) FROM ${tasks} WHERE paper_id = $1) AS tasks,
    (SELECT array_agg(method ORDER BY position) FROM ${methods} WHERE paper_id = $1) AS methods`;
}

/** The annotations of a row of {@link annotationsStatement}, or `null` when the paper does not exist. */
export function annotationsOfRow(row: AnnotationsRow | undefined): PaperAnnotations | null {
  if (row === undefined || !row.found) return null;
  return { tasks: row.tasks ?? [], methods: (row.methods ?? []).map((text) => JSON.parse(text) as MethodRecord) };
}

/** Deletes the annotations of these papers (or of every paper: `null`). */
export async function deleteAnnotations(tx: Queryable, names: SchemaNames, ids: readonly string[] | null): Promise<void> {
  const { tasks, methods } = annotationTables(names);
  if (ids === null) {
    await tx.query(`DELETE FROM ${tasks}`);
    await tx.query(`DELETE FROM ${methods}`);
    return;
  }
  if (ids.length === 0) return;
  await tx.query(`DELETE FROM ${tasks} WHERE paper_id = ANY($1::text[])`, [ids]);
  await tx.query(`DELETE FROM ${methods} WHERE paper_id = ANY($1::text[])`, [ids]);
}

/** Papers' annotations per insert statement. */
const BATCH = 500;

/**
 * Replaces the annotations of the papers `ids` with what `annotations` holds for them (none for
 * a paper it does not hold), in batches. Text PostgreSQL cannot store (U+0000, lone surrogates)
 * is dropped with its entry.
 */
export async function writeAnnotations(tx: Queryable, names: SchemaNames, ids: readonly string[], annotations: AnnotationMap, replaceExisting: boolean): Promise<void> {
  const { tasks, methods } = annotationTables(names);
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    if (replaceExisting) await deleteAnnotations(tx, names, batch);
    const taskRows: [string, number, string, string][] = [];
    const methodRows: [string, number, string, string][] = [];
    for (const id of batch) {
      const found = annotations.get(id);
      if (found === undefined) continue;
      const { tasks: names, methods: records } = storable(found);
      names.forEach((name, position) => taskRows.push([id, position, nameSlug(name), name]));
      records.forEach((method, position) => methodRows.push([id, position, nameSlug(method.name), JSON.stringify(method)]));
    }
    if (taskRows.length > 0) {
      await tx.query(
        `INSERT INTO ${tasks} (paper_id, position, task_slug, task_name) SELECT * FROM unnest($1::text[], $2::int4[], $3::text[], $4::text[])`,
        columns(taskRows),
      );
    }
    if (methodRows.length > 0) {
      await tx.query(
        `INSERT INTO ${methods} (paper_id, position, method_slug, method) SELECT * FROM unnest($1::text[], $2::int4[], $3::text[], $4::text[])`,
        columns(methodRows),
      );
    }
  }
}

/** The entries whose texts PostgreSQL can store, one per slug (see `normalizeAnnotations`). */
function storable(annotations: PaperAnnotations): PaperAnnotations {
  const ok = (value: unknown) => typeof value !== 'string' || !isUnstorable(value);
  const { tasks, methods } = normalizeAnnotations(annotations);
  return { tasks: tasks.filter(ok), methods: methods.filter((method) => Object.values(method).every(ok)) };
}

function columns(rows: readonly [string, number, string, string][]): unknown[] {
  return [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])];
}
