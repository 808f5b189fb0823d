import type { Migration } from '../migration.js';
import { qualified, type SchemaNames } from '../schema.js';

/*
 * Posting lists through writes. The lists of a whole import (schema step 6) name papers by
 * ordinal, 1..n. Every later write gives a paper it adds or changes a new ordinal above every
 * ordinal ever handed out (import.ts), so a stored paper whose ordinal is at most the lists'
 * last one (`postings_through`) is exactly the paper the lists hold; what a write took away is
 * an ordinal gone from the table. This step logs those ordinals, so that the SQL source can
 * keep answering from the lists after writes: the lists without the retired ordinals, plus the
 * few papers above `postings_through` (see delta/delta-log.ts).
 */

/** `paperlist_retired` and its trigger functions, by schema-qualified name. */
export function retiredNames(names: SchemaNames): { table: string; updates: string; deletes: string; truncated: string } {
  return {
    table: qualified(names, 'paperlist_retired'),
    updates: qualified(names, 'paperlist_retired_updates'),
    deletes: qualified(names, 'paperlist_retired_deletes'),
    truncated: qualified(names, 'paperlist_retired_truncated'),
  };
}

/**
 * Schema step 8: the retired-ordinals log.
 *
 * - `paperlist_retired`: one row per ordinal a statement took out of `papers` (a delete, or an
 *   update that gave the paper a new ordinal), numbered in commit order (writers of `papers`
 *   hold the catalogue's write lock: see change-log.ts). A whole import empties it.
 * - `paperlist_state.postings_through`: the last ordinal the posting lists hold.
 * - An update from outside paperlist that changes a paper but keeps its ordinal (the lists
 *   would hold its old words) and a bare `TRUNCATE` mark the lists stale (`postings_version`
 *   and `facets_version` NULL) until the next whole import: answers then come from SQL, as
 *   before this step, never from lists that no longer describe the table.
 */
export const RETIRED_ORDINALS_MIGRATION: Migration = {
  version: 8,
  name: 'posting lists through writes',
  up: (n) => {
    const r = retiredNames(n);
    const stale = `UPDATE ${n.state} SET postings_version = NULL, facets_version = NULL`;
    return [
      `CREATE TABLE ${r.table} (
        seq bigserial PRIMARY KEY,
        ord int4 NOT NULL
      )`,
      `CREATE INDEX paperlist_retired_ord ON ${r.table} (ord)`,
      `ALTER TABLE ${n.state} ADD COLUMN postings_through int4`,
      // Ordinals are unique, so an old row's ordinal still in the new rows is the same row's, unchanged.
      `CREATE FUNCTION ${r.updates}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          INSERT INTO ${r.table} (ord) SELECT ord FROM old_rows WHERE ord IS NOT NULL EXCEPT SELECT ord FROM new_rows;
          IF EXISTS (SELECT 1 FROM new_rows nr JOIN old_rows o ON o.ord = nr.ord WHERE nr IS DISTINCT FROM o) THEN
            ${stale};
          END IF;
          RETURN NULL;
        END
      $fn$`,
      `CREATE FUNCTION ${r.deletes}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          INSERT INTO ${r.table} (ord) SELECT ord FROM old_rows WHERE ord IS NOT NULL;
          RETURN NULL;
        END
      $fn$`,
      `CREATE FUNCTION ${r.truncated}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          ${stale};
          RETURN NULL;
        END
      $fn$`,
      `CREATE TRIGGER papers_retired_update AFTER UPDATE ON ${n.papers} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ${r.updates}()`,
      `CREATE TRIGGER papers_retired_delete AFTER DELETE ON ${n.papers} REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ${r.deletes}()`,
      `CREATE TRIGGER papers_retired_truncate AFTER TRUNCATE ON ${n.papers}
        FOR EACH STATEMENT EXECUTE FUNCTION ${r.truncated}()`,
    ];
  },
};
