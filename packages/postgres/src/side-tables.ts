import { queryRows, quoteIdent, sqlState, type Queryable } from './db.js';
import { closePendingList, keptThroughLoad, openPendingList, retargetIndex, tableIndexes, type TableIndex } from './bulk-indexes.js';
import { qualified, type SchemaNames } from './schema.js';

/**
 * A live table and the empty copy a full refresh fills beside it: same columns, defaults,
 * constraints and storage options, its indexes built under temporary names.
 */
export interface SideTable {
  /** Schema-qualified names. */
  live: string;
  side: string;
  /** The live table's own name, which the side table takes at the swap. */
  liveName: string;
  indexes: { index: TableIndex; temporary: string; kept: boolean }[];
}

/** The two tables a catalogue is: papers and its word dictionary. */
export interface SideTables {
  papers: SideTable;
  words: SideTable;
}

/**
 * Creates the side tables of a full refresh, in the import's transaction (so COPY can write
 * frozen rows into them), with the indexes kept through the load already there. Refuses,
 * before any row is written, a table that objects outside paperlist depend on (views, foreign
 * keys, row security policies, publications, column privileges): the swap would drop or lose them.
 */
export async function createSideTables(tx: Queryable, names: SchemaNames, server: boolean): Promise<SideTables> {
  const papers = await createSideTable(tx, names, names.papers, 'papers', 'paperlist_swap_papers', server);
  const words = await createSideTable(tx, names, names.words, 'paperlist_words', 'paperlist_swap_words', server);
  return { papers, words };
}

async function createSideTable(tx: Queryable, names: SchemaNames, live: string, liveName: string, sideName: string, server: boolean): Promise<SideTable> {
  await refuseDependents(tx, live);
  const side = qualified(names, sideName);
  const [row] = await queryRows<{ options: string[] | null }>(tx, `SELECT reloptions AS options FROM pg_class WHERE oid = $1::regclass`, [live]);
  await tx.query(`CREATE TABLE ${side} (LIKE ${live} INCLUDING ALL EXCLUDING INDEXES)`);
  const options = (row?.options ?? []).map((option) => option.replace(/=(.*)$/s, (_m, value: string) => ` = '${value.replace(/'/g, "''")}'`));
  if (options.length > 0) await tx.query(`ALTER TABLE ${side} SET (${options.join(', ')})`);
  const indexes = (await tableIndexes(tx, live)).map((index, i) => ({
    index,
    temporary: `${sideName}_${i}`,
    kept: index.constraint === null && keptThroughLoad(index, server),
  }));
  const table: SideTable = { live, side, liveName, indexes };
  for (const entry of indexes.filter((entry) => entry.kept)) {
    await tx.query(retargetIndex(entry.index, quoteIdent(entry.temporary), side));
    await openPendingList(tx, qualified(names, entry.temporary));
  }
  return table;
}

/** After the rows: builds the side table's other indexes and constraints, merges the kept ones. */
export async function buildSideIndexes(tx: Queryable, names: SchemaNames, table: SideTable): Promise<void> {
  for (const { index, temporary, kept } of table.indexes) {
    if (kept) {
      await closePendingList(tx, qualified(names, temporary), index);
      continue;
    }
    await tx.query(retargetIndex(index, quoteIdent(temporary), table.side));
    if (index.constraint !== null) {
      const kind = index.constraint.type === 'p' ? 'PRIMARY KEY' : 'UNIQUE';
      await tx.query(`ALTER TABLE ${table.side} ADD CONSTRAINT ${quoteIdent(temporary)} ${kind} USING INDEX ${quoteIdent(temporary)}`);
    }
  }
}

/**
 * Puts the side tables in place of the live ones: takes both locks (waiting for running reads,
 * which then queue for the few milliseconds left), copies the live tables' owner, privileges
 * and triggers, drops them and gives the side tables, their indexes and constraints the live
 * names. Everything is DDL of the import's transaction: readers see the old catalogue until
 * it commits, then the new one.
 */
export async function swapSideTables(tx: Queryable, names: SchemaNames, tables: SideTables, lockWaitMs: number): Promise<void> {
  const all = [tables.papers, tables.words];
  await lockLiveTables(tx, all.map((table) => table.live).join(', '), lockWaitMs);
  const carried = await Promise.all(all.map((table) => carriedStatements(tx, table)));
  await tx.query(`DROP TABLE ${all.map((table) => table.live).join(', ')}`);
  for (const [i, table] of all.entries()) {
    await tx.query(`ALTER TABLE ${table.side} RENAME TO ${quoteIdent(table.liveName)}`);
    for (const { index, temporary } of table.indexes) {
      if (index.constraint !== null) {
        await tx.query(`ALTER TABLE ${table.live} RENAME CONSTRAINT ${quoteIdent(temporary)} TO ${quoteIdent(index.constraint.name)}`);
      }
      if (index.constraint === null || index.constraint.name !== index.name) {
        const current = index.constraint === null ? temporary : index.constraint.name;
        await tx.query(`ALTER INDEX ${qualified(names, current)} RENAME TO ${quoteIdent(index.name)}`);
      }
    }
    for (const statement of carried[i]!) await tx.query(statement);
  }
}

/** How long one attempt at the swap's lock may wait: reads that arrive meanwhile queue behind it. */
const LOCK_ATTEMPT_MS = 500;
/** The pause between attempts, in which the queued reads run. */
const LOCK_PAUSE_MS = 250;

/**
 * Takes `ACCESS EXCLUSIVE` locks on the live tables. A lock request that waits (for a long read,
 * or a transaction left open) makes every later read queue behind it, so each attempt gives up
 * after half a second, lets the queue drain, and tries again, for `waitMs` in all; then the import
 * fails (and is rolled back) rather than stall the readers.
 */
async function lockLiveTables(tx: Queryable, tables: string, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    await tx.query('SAVEPOINT paperlist_swap');
    try {
      await tx.query(`SET LOCAL lock_timeout = ${LOCK_ATTEMPT_MS}`);
      await tx.query(`LOCK TABLE ${tables} IN ACCESS EXCLUSIVE MODE`);
      await tx.query('RELEASE SAVEPOINT paperlist_swap');
      await tx.query('SET LOCAL lock_timeout TO DEFAULT');
      return;
    } catch (error) {
      if (sqlState(error) !== '55P03') throw error;
      await tx.query('ROLLBACK TO SAVEPOINT paperlist_swap');
    }
    if (performance.now() >= deadline) {
      throw new Error(
        `paperlist: the new catalogue is ready but the swap could not lock ${tables} within ${waitMs} ms: other sessions ` +
          `kept using them (a long query or an open transaction); nothing was changed`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_PAUSE_MS));
  }
}

/** What the live table has that `LIKE` does not copy: its owner, privileges and triggers, as statements for the new table. */
async function carriedStatements(tx: Queryable, table: SideTable): Promise<string[]> {
  const [owner] = await queryRows<{ owner: string }>(tx, `SELECT quote_ident(pg_get_userbyid(relowner)) AS owner FROM pg_class WHERE oid = $1::regclass`, [table.live]);
  const grants = await queryRows<{ statement: string }>(
    tx,
    `SELECT format('GRANT %s ON %s TO %s%s', a.privilege_type, $1::text,
        CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END,
        CASE WHEN a.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END) AS statement
      FROM pg_class c, aclexplode(c.relacl) a
      WHERE c.oid = $1::regclass AND a.grantee <> c.relowner`,
    [table.live],
  );
  const triggers = await queryRows<{ statement: string }>(
    tx,
    `SELECT pg_get_triggerdef(oid) AS statement FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal ORDER BY oid`,
    [table.live],
  );
  return [`ALTER TABLE ${table.live} OWNER TO ${owner!.owner}`, ...grants.map((row) => row.statement), ...triggers.map((row) => row.statement)];
}

/** Throws when something outside the table and its own indexes, constraints and triggers depends on it. */
async function refuseDependents(tx: Queryable, table: string): Promise<void> {
  const found = await queryRows<{ description: string }>(
    tx,
    `SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS description
        FROM pg_depend d
        WHERE d.refclassid = 'pg_class'::regclass AND d.refobjid = $1::regclass AND d.deptype = 'n'
          -- the table's own parts, which the side table has too: columns' defaults, checks, keys, indexes, triggers
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE d.classid = 'pg_constraint'::regclass AND k.oid = d.objid
            AND k.conrelid = $1::regclass AND k.contype IN ('c', 'n', 'p', 'u'))
          AND NOT EXISTS (SELECT 1 FROM pg_attrdef a WHERE d.classid = 'pg_attrdef'::regclass AND a.oid = d.objid AND a.adrelid = $1::regclass)
          AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE d.classid = 'pg_class'::regclass AND i.indexrelid = d.objid AND i.indrelid = $1::regclass)
          AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE d.classid = 'pg_trigger'::regclass AND t.oid = d.objid AND t.tgrelid = $1::regclass)
      UNION ALL SELECT format('policy %s', polname) FROM pg_policy WHERE polrelid = $1::regclass
      UNION ALL SELECT format('publication %s', p.pubname) FROM pg_publication_rel r JOIN pg_publication p ON p.oid = r.prpubid
        WHERE r.prrelid = $1::regclass
      UNION ALL SELECT format('privileges on column %s', attname) FROM pg_attribute
        WHERE attrelid = $1::regclass AND attacl IS NOT NULL AND NOT attisdropped`,
    [table],
  );
  if (found.length > 0) {
    throw new Error(
      `paperlist: a full refresh builds a new ${table} beside the old one and drops the old one, which would take ` +
        `${found.map((row) => row.description).join(', ')} with it; import with { swap: false } ` +
        `(CLI: --in-place) to empty and reload the table in place instead`,
    );
  }
}
