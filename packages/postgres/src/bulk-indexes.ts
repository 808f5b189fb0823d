import { queryRows, type Queryable } from './db.js';

/** An index of a table, as PostgreSQL describes it. */
export interface TableIndex {
  /** The index's name (in the table's schema). */
  name: string;
  /** `pg_get_indexdef`: the statement that creates it. */
  definition: string;
  /** The index's name as `pg_get_indexdef` prints it (quoted where needed). */
  quotedName: string;
  method: string;
  /** Its storage options (`WITH (...)`) as `name=value`, empty when none. */
  options: string[];
  /** The constraint it backs (primary key or unique), if any. */
  constraint: { name: string; type: 'p' | 'u' } | null;
}

/** The indexes of a table (schema-qualified name), oldest first. */
export async function tableIndexes(tx: Queryable, table: string): Promise<TableIndex[]> {
  const rows = await queryRows<Omit<TableIndex, 'constraint'> & { constraint_name: string | null; constraint_type: 'p' | 'u' | null }>(
    tx,
    `SELECT c.relname AS name, quote_ident(c.relname) AS "quotedName", pg_get_indexdef(i.indexrelid) AS definition,
        am.amname AS method, coalesce(c.reloptions, '{}') AS options, k.conname AS constraint_name, k.contype AS constraint_type
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_am am ON am.oid = c.relam
      LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid AND k.contype IN ('p', 'u')
      WHERE i.indrelid = $1::regclass
      ORDER BY i.indexrelid`,
    [table],
  );
  return rows.map(({ constraint_name, constraint_type, ...index }) => ({
    ...index,
    constraint: constraint_name === null || constraint_type === null ? null : { name: constraint_name, type: constraint_type },
  }));
}

/** Pending-list size of a GIN index kept through a bulk load, in kB: merged every 32 MB. */
const BULK_GIN_PENDING_KB = 32 * 1024;

/**
 * Whether an index is kept up to date while a bulk load writes rows, rather than built after
 * it. B-trees are built after: much faster than keeping them up to date row by row. On a
 * server, a GIN index whose only option is `fastupdate` is kept: new entries gather in its pending
 * list (turned on for the load), merged every 32 MB by the server while JavaScript encodes the
 * next rows, so the merges use the core the encoding leaves idle (498k papers: the word index's
 * build after the load took 30 s; kept, the import's median went from 84 s to 75 s; the titles'
 * trigram index took 22-26 s after the load).
 */
export function keptThroughLoad(index: TableIndex, server: boolean): boolean {
  return server && index.method === 'gin' && index.options.every((option) => option.startsWith('fastupdate='));
}

/** Readies an index kept through the load (schema-qualified name): a large pending list. */
export async function openPendingList(tx: Queryable, index: string): Promise<void> {
  await tx.query(`ALTER INDEX ${index} SET (fastupdate = on, gin_pending_list_limit = ${BULK_GIN_PENDING_KB})`);
}

/**
 * After the load: merges what is left in the pending list and gives the index back its own
 * options (`fastupdate = off` of the trigram indexes: their searches then never scan a pending list).
 */
export async function closePendingList(tx: Queryable, index: string, kept: TableIndex): Promise<void> {
  await tx.query(`SELECT gin_clean_pending_list($1::regclass)`, [index]);
  await tx.query(`ALTER INDEX ${index} RESET (fastupdate, gin_pending_list_limit)`);
  const own = kept.options.map((option) => option.replace(/=(.*)$/s, (_m, value: string) => ` = '${value.replace(/'/g, "''")}'`));
  if (own.length > 0) await tx.query(`ALTER INDEX ${index} SET (${own.join(', ')})`);
}

/**
 * `definition` for another name on another table: `CREATE [UNIQUE] INDEX <name> ON <table> USING ...`
 * with the rest (method, columns, options, predicate) unchanged.
 */
export function retargetIndex(index: TableIndex, name: string, table: string): string {
  const head = /^CREATE (UNIQUE )?INDEX /.exec(index.definition);
  const using = index.definition.indexOf(' USING ', (head?.[0].length ?? 0) + index.quotedName.length);
  if (head === null || using < 0) throw new Error(`paperlist: cannot read the definition of index ${index.name}: ${index.definition}`);
  return `${head[0]}${name} ON ${table}${index.definition.slice(using)}`;
}
