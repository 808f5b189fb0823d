import { quoteLiteral, type Queryable } from './db.js';
import type { Migration } from './migration.js';
import { qualified, type SchemaNames } from './schema.js';
import { annotationTables } from './annotations-sql.js';

/*
 * The change log: what a following source (following-source.ts) reads to keep an in-memory
 * copy of the catalogue up to date. Triggers on `papers` append one row per changed paper id to
 * `paperlist_changes` (statement-level, with transition tables, so a bulk upsert costs one
 * INSERT ... SELECT per statement rather than a trigger call per row), and a `reload` marker for
 * whatever cannot be followed paper by paper (a TRUNCATE, a catalogue replaced by swapping
 * tables, tasks and methods written). Each statement that logs something sends a NOTIFY on the
 * channel named like the schema, with the newest sequence number as payload.
 *
 * Order. A follower reads "every row after the last sequence I applied", which is only safe if a
 * row can never become visible after a row with a greater sequence. Sequences are handed out when
 * the row is inserted, not at commit, so two writers could commit out of order; a BEFORE statement
 * trigger therefore takes the catalogue's write lock (the advisory lock `importPapers` takes) before
 * any row of `papers` is touched, and keeps it until commit: writers of `papers` run one after the
 * other, and sequences are in commit order. (paperlist's own writers hold that lock already; taking
 * it before any row lock avoids deadlocks with them.) A rolled-back writer leaves a gap in the
 * sequence, which is harmless: followers ask for "greater than", never for "the next one".
 *
 * Pruning. A statement that logs rows also deletes, at most once a minute, the rows older than
 * `paperlist_state.changes_keep` (default one hour), and records the highest sequence deleted in
 * `changes_pruned_through`. A follower whose last applied sequence is below that has missed
 * changes it can no longer read, and reloads the whole catalogue instead. Followers that are
 * connected are seconds behind at most, so the window only matters for one that was cut off (or
 * stopped) longer than that; change it with `UPDATE <schema>.paperlist_state SET changes_keep = '1 day'`.
 */

/** `paperlist_changes` and the functions around it, by schema-qualified name. */
export interface ChangeLogNames {
  table: string;
  /** The NOTIFY channel: the schema's name. */
  channel: string;
  /** `paperlist_changes_reload()`: records a reload marker (once per transaction). */
  reload: string;
}

export function changeLogNames(names: SchemaNames): ChangeLogNames {
  return { table: qualified(names, 'paperlist_changes'), channel: names.schema, reload: qualified(names, 'paperlist_changes_reload') };
}

/** The operations a log row records. */
export type ChangeOperation = 'upsert' | 'delete' | 'reload';

/** How often (at most) a writer prunes the log. */
const PRUNE_EVERY = "interval '1 minute'";

/**
 * Schema step 5: the change log, its triggers on `papers` (and on the tasks and methods tables,
 * whose writes are followed by a reload), and its pruning state in `paperlist_state`.
 */
export const CHANGE_LOG_MIGRATION: Migration = {
  version: 5,
  name: 'change log for following sources',
  up: (n) => {
    const log = changeLogNames(n);
    const fn = (name: string) => qualified(n, name);
    const schemaLiteral = quoteLiteral(n.schema);
    const { tasks, methods } = annotationTables(n);
    // After a statement logged rows up to `top`: wake the followers, and prune now and then.
    const afterLogging = (top: string) => `
          PERFORM pg_notify(${quoteLiteral(log.channel)}, ${top}::text);
          PERFORM ${fn('paperlist_changes_prune')}();`;
    return [
      `CREATE TABLE ${log.table} (
        seq bigserial PRIMARY KEY,
        paper_id text COLLATE "C",
        op text NOT NULL CHECK (op IN ('upsert', 'delete', 'reload')),
        at timestamptz NOT NULL DEFAULT now()
      )`,
      `ALTER TABLE ${n.state}
        ADD COLUMN changes_keep interval NOT NULL DEFAULT '1 hour',
        ADD COLUMN changes_pruned_through bigint NOT NULL DEFAULT 0,
        ADD COLUMN changes_pruned_at timestamptz NOT NULL DEFAULT now()`,
      // The catalogue's write lock, before the statement touches a row (see the comment at the top).
      `CREATE FUNCTION ${fn('paperlist_changes_lock')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          PERFORM pg_advisory_xact_lock(74111, hashtext(${schemaLiteral}));
          RETURN NULL;
        END
      $fn$`,
      `CREATE FUNCTION ${fn('paperlist_changes_prune')}() RETURNS void LANGUAGE plpgsql AS $fn$
        DECLARE
          keep interval;
          boundary bigint;
          gone bigint;
        BEGIN
          SELECT changes_keep INTO keep FROM ${n.state} WHERE changes_pruned_at < now() - ${PRUNE_EVERY};
          IF NOT FOUND THEN RETURN; END IF;
          -- Sequences grow with time (writers are serialised), so the oldest row to keep is found
          -- from the start of the primary key, and everything before it goes.
          SELECT seq INTO boundary FROM ${log.table} WHERE at >= now() - keep ORDER BY seq LIMIT 1;
          WITH deleted AS (DELETE FROM ${log.table} WHERE boundary IS NULL OR seq < boundary RETURNING seq)
            SELECT max(seq) INTO gone FROM deleted;
          UPDATE ${n.state} SET changes_pruned_at = now(),
            changes_pruned_through = greatest(changes_pruned_through, coalesce(gone, 0));
        END
      $fn$`,
      // A reload marker, once per transaction and schema; the rows written after it in the same
      // transaction are not logged one by one (the reload reads them all).
      `CREATE FUNCTION ${log.reload}() RETURNS void LANGUAGE plpgsql AS $fn$
        DECLARE
          top bigint;
        BEGIN
          IF current_setting('paperlist.reloading', true) IS NOT DISTINCT FROM ${schemaLiteral} THEN RETURN; END IF;
          PERFORM pg_advisory_xact_lock(74111, hashtext(${schemaLiteral}));
          PERFORM set_config('paperlist.reloading', ${schemaLiteral}, true);
          INSERT INTO ${log.table} (paper_id, op) VALUES (NULL, 'reload') RETURNING seq INTO top;
          ${afterLogging('top')}
        END
      $fn$`,
      `CREATE FUNCTION ${fn('paperlist_changes_reloaded')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          PERFORM ${log.reload}();
          RETURN NULL;
        END
      $fn$`,
      // Statement triggers over the transition table "changed": the ids written, or deleted.
      ...(['upsert', 'delete'] as const).map(
        (op) => `CREATE FUNCTION ${fn(`paperlist_changes_${op}s`)}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        DECLARE
          top bigint;
        BEGIN
          IF current_setting('paperlist.reloading', true) IS NOT DISTINCT FROM ${schemaLiteral} THEN RETURN NULL; END IF;
          WITH logged AS (INSERT INTO ${log.table} (paper_id, op) SELECT id, '${op}' FROM changed RETURNING seq)
            SELECT max(seq) INTO top FROM logged;
          IF top IS NOT NULL THEN ${afterLogging('top')}
          END IF;
          RETURN NULL;
        END
      $fn$`,
      ),
      // An update that changes a paper's id (never done by paperlist) deletes the old id.
      `CREATE FUNCTION ${fn('paperlist_changes_renamed')}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        DECLARE
          top bigint;
        BEGIN
          IF current_setting('paperlist.reloading', true) IS NOT DISTINCT FROM ${schemaLiteral} THEN RETURN NULL; END IF;
          INSERT INTO ${log.table} (paper_id, op) VALUES (OLD.id, 'delete') RETURNING seq INTO top;
          ${afterLogging('top')}
          RETURN NULL;
        END
      $fn$`,
      `CREATE TRIGGER papers_changes_lock BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${n.papers}
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn('paperlist_changes_lock')}()`,
      `CREATE TRIGGER papers_changes_insert AFTER INSERT ON ${n.papers} REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn('paperlist_changes_upserts')}()`,
      `CREATE TRIGGER papers_changes_update AFTER UPDATE ON ${n.papers} REFERENCING NEW TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn('paperlist_changes_upserts')}()`,
      `CREATE TRIGGER papers_changes_delete AFTER DELETE ON ${n.papers} REFERENCING OLD TABLE AS changed
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn('paperlist_changes_deletes')}()`,
      `CREATE TRIGGER papers_changes_renamed AFTER UPDATE OF id ON ${n.papers}
        FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION ${fn('paperlist_changes_renamed')}()`,
      `CREATE TRIGGER papers_changes_truncate AFTER TRUNCATE ON ${n.papers}
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn('paperlist_changes_reloaded')}()`,
      // Tasks and methods written (not deleted: deletes only follow papers deleted or replaced,
      // which are logged already): the memory engine takes them with a whole catalogue only.
      ...[tasks, methods].flatMap((table) => {
        const bare = table === tasks ? 'paper_tasks' : 'paper_methods';
        return [
          `CREATE TRIGGER ${bare}_changes_lock BEFORE INSERT OR UPDATE ON ${table}
            FOR EACH STATEMENT EXECUTE FUNCTION ${fn('paperlist_changes_lock')}()`,
          `CREATE TRIGGER ${bare}_changes AFTER INSERT OR UPDATE ON ${table}
            FOR EACH STATEMENT EXECUTE FUNCTION ${fn('paperlist_changes_reloaded')}()`,
        ];
      }),
    ];
  },
};

/**
 * Records a reload marker in the import's transaction: a catalogue swapped in from side tables
 * was written without the live table's triggers, so no row of it was logged.
 */
export async function recordReload(tx: Queryable, names: SchemaNames): Promise<void> {
  await tx.query(`SELECT ${changeLogNames(names).reload}()`);
}
