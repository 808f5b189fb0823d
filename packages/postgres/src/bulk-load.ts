import { closePendingList, keptThroughLoad, openPendingList, tableIndexes, type TableIndex } from './bulk-indexes.js';
import { queryRows, quoteIdent, type Queryable } from './db.js';
import { qualified, type SchemaNames } from './schema.js';
import { buildSideIndexes, createSideTables, swapSideTables } from './side-tables.js';

/**
 * A load of a whole catalogue (into an empty table, or replacing the stored one): the tables
 * its rows go to, and what happens around the rows. Either way the tables are new or emptied
 * in the import's transaction, so COPY writes frozen rows, and indexes are built after the
 * rows (a GIN index, on a server, is kept through the load instead: see `keptThroughLoad`).
 */
export interface BulkLoad {
  /** Where the papers and the new word dictionary are written. */
  papers: string;
  words: string;
  /** Whether the new catalogue is built beside the live one and swapped in (see `side-tables.ts`). */
  swapped: boolean;
  /** After the rows: builds the indexes. */
  buildIndexes(): Promise<void>;
  /** Last step before commit: statistics, and the swap. */
  finish(): Promise<void>;
}

/**
 * Starts a bulk load. `swap`: into side tables, swapped in by `finish` (reads go on meanwhile);
 * otherwise the live tables are emptied and loaded in place, under an `ACCESS EXCLUSIVE` lock
 * held until commit.
 */
export async function startBulkLoad(
  tx: Queryable,
  names: SchemaNames,
  options: { swap: boolean; server: boolean; swapLockWaitMs: number },
): Promise<BulkLoad> {
  if (options.swap) {
    const side = await createSideTables(tx, names, options.server);
    return {
      papers: side.papers.side,
      words: side.words.side,
      swapped: true,
      buildIndexes: async () => {
        await buildSideIndexes(tx, names, side.papers);
        await buildSideIndexes(tx, names, side.words);
      },
      finish: async () => {
        await tx.query(`ANALYZE ${side.papers.side}, ${side.words.side}`);
        await swapSideTables(tx, names, side, options.swapLockWaitMs);
      },
    };
  }
  // A new catalogue starts a new word dictionary. (The TRUNCATE logs a reload for followers.)
  await tx.query(`TRUNCATE ${names.papers}, ${names.words}`);
  const capturing = await withoutTransitionTriggers(tx, names.papers);
  const rebuild: string[] = [];
  const pending: [name: string, index: TableIndex][] = [];
  for (const index of await tableIndexes(tx, names.papers)) {
    if (index.constraint !== null) continue;
    const name = qualified(names, index.name);
    if (keptThroughLoad(index, options.server)) {
      await openPendingList(tx, name);
      pending.push([name, index]);
    } else {
      await tx.query(`DROP INDEX ${name}`);
      rebuild.push(index.definition);
    }
  }
  return {
    papers: names.papers,
    words: names.words,
    swapped: false,
    buildIndexes: async () => {
      for (const definition of rebuild) await tx.query(definition);
      for (const [name, index] of pending) await closePendingList(tx, name, index);
    },
    finish: async () => {
      for (const definition of capturing) await tx.query(definition);
    },
  };
}

/**
 * Drops the table's triggers that capture transition tables (the change log's: see
 * change-log.ts) and answers the statements that create them again. A whole catalogue loaded in
 * place is followed by a reload, so logging its rows one by one is useless, and capturing them
 * would copy every row written once more (about a sixth of the load). Dropped and created again
 * in the load's transaction, which holds the table's `ACCESS EXCLUSIVE` lock: nobody sees the gap.
 */
async function withoutTransitionTriggers(tx: Queryable, table: string): Promise<string[]> {
  const triggers = await queryRows<{ name: string; definition: string }>(
    tx,
    `SELECT tgname AS name, pg_get_triggerdef(oid) AS definition FROM pg_trigger
      WHERE tgrelid = $1::regclass AND NOT tgisinternal AND (tgnewtable IS NOT NULL OR tgoldtable IS NOT NULL) ORDER BY oid`,
    [table],
  );
  for (const trigger of triggers) await tx.query(`DROP TRIGGER ${quoteIdent(trigger.name)} ON ${table}`);
  return triggers.map((trigger) => trigger.definition);
}
