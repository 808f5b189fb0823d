import type { AnnotationMap, Paper } from '@paperlist/core';
import { deleteAnnotations, writeAnnotations } from './annotations-sql.js';
import { startBulkLoad, type BulkLoad } from './bulk-load.js';
import { recordReload } from './change-log.js';
import { PaperEncoder, type WholeCatalogue } from './copy-format.js';
import { isPGlite, queryRows, withTransaction, type Queryable } from './db.js';
import { explainFailure, locateFailure } from './import-errors.js';
import { assertMigrated } from './migrations.js';
import { paperStream, type ImportInput } from './paper-input.js';
import { ALL_COLUMNS, schemaNames, type SchemaNames } from './schema.js';
import { chooseMethod, writeRows, type Row, type TableWriter } from './table-writer.js';
import { WordDictionary } from './word-dictionary.js';
import { lockedTotals, refreshTotals, totalsWhere, writeMovedTotals, type CatalogueTotals } from './catalogue-totals.js';
import { PostingsBuilder } from './postings-builder.js';
import { FacetFactsBuilder } from './facet-facts-builder.js';
import { retiredNames } from './delta/retired-ordinals-migration.js';

export { PaperImportError } from './import-errors.js';
export type { ImportInput } from './paper-input.js';

/** Where an import is: writing rows, building indexes, or finished. */
export interface ImportProgress {
  phase: 'loading' | 'indexing' | 'done';
  /** Papers written so far. */
  records: number;
  /** Input bytes read so far (compressed), when importing a file. */
  bytes?: number;
}

/** Options of {@link importPapers}. */
export interface ImportOptions {
  /** The schema to import into; default `paperlist`. */
  schema?: string;
  /**
   * Update papers whose id is already stored (`INSERT ... ON CONFLICT (id) DO UPDATE` from a
   * staging table). Without it an id already stored fails the import.
   */
  upsert?: boolean;
  /** Replace the whole catalogue: it becomes exactly the input (see `swap`). */
  replace?: boolean;
  /**
   * How `replace` refreshes a stored catalogue. `true` (default): the new catalogue is written
   * into tables beside the live ones, which are swapped in when the import commits; reads go on
   * from the old catalogue meanwhile and wait only for the swap. `false`: the table is emptied
   * and loaded in place, and reads wait for the whole import (its `ACCESS EXCLUSIVE` lock). A
   * swap needs room for both catalogues until it commits, and refuses a table that views,
   * foreign keys, policies or publications depend on: use `false` there.
   */
  swap?: boolean;
  /**
   * How long the swap may try to lock the live tables, in milliseconds (default 60,000). Each
   * attempt waits at most half a second, so reads never queue longer than that behind it; when a
   * long query or an open transaction keeps the tables past this, the import fails and nothing changes.
   */
  swapLockWaitMs?: number;
  /** Papers per COPY chunk or INSERT statement; default 1,000. */
  batchSize?: number;
  /** Called every 10,000 papers, when indexes are being built, and at the end. */
  onProgress?: (progress: ImportProgress) => void;
  /** Aborts the import; nothing is kept (one transaction). */
  signal?: AbortSignal;
  /**
   * How rows are sent: `copy` (COPY FROM STDIN through pg-copy-streams on a `pg` connection,
   * or COPY from a blob on PGlite), `insert` (multi-row INSERT statements), or `auto`
   * (default): COPY where the connection supports it, INSERT otherwise.
   */
  method?: 'auto' | 'copy' | 'insert';
  /**
   * Ids to delete in the same transaction, after the papers are written (a write batch's
   * deletes: the batch commits whole or not at all). Not with `replace`.
   */
  remove?: readonly string[];
  /**
   * Called inside the import's transaction once it holds the catalogue's write lock, before
   * anything is written: to read what the batch will change (exactly, since no other import or
   * write runs meanwhile). It may answer more ids to delete (added to `remove`).
   */
  onLocked?: (tx: Queryable) => Promise<{ remove?: readonly string[] } | void>;
  /**
   * `maintenance_work_mem` (index builds) and `work_mem` (merges of the GIN index's pending
   * list) during a bulk load, on a server; default `'1GB'`. Not changed on PGlite.
   */
  maintenanceWorkMem?: string;
  /**
   * The tasks and methods of the papers, by id (see `readCatalog`'s `annotations`): written to
   * `paper_tasks`/`paper_methods` in the same transaction, replacing those of each written
   * paper. Without it, written papers keep the annotations they had (none for new ones).
   * Either way a replaced catalogue's and a removed paper's annotations go with them.
   */
  annotations?: AnnotationMap;
}

/** What {@link importPapers} did. */
export interface ImportResult {
  /** Papers read from the input. */
  records: number;
  /** Papers that were not stored before. */
  inserted: number;
  /** Papers that replaced a different stored version (upsert). */
  updated: number;
  /** Papers identical to the stored version (upsert), left alone. */
  unchanged: number;
  /** Papers deleted (`remove`). */
  deleted: number;
  /** How rows were sent. */
  method: 'copy' | 'insert';
  /** The table was empty (or replaced): rows were written frozen, indexes built after the load. */
  bulk: boolean;
  /** The stored catalogue was replaced by swapping in tables built beside it (`replace` with `swap`). */
  swapped: boolean;
  durationMs: number;
}

const PROGRESS_INTERVAL = 10_000;
const DEFAULT_BATCH_SIZE = 1000;
const DEFAULT_SWAP_LOCK_WAIT_MS = 60_000;

/**
 * Imports papers into paperlist's table, in one transaction: all of them or none.
 *
 * A file path goes through the core's `readPapers` (gzip, JSON Lines or JSON array, every
 * record validated; a bad record fails with a `PaperLoadError` naming its line). Papers from
 * an iterable are validated the same way; their "line" is their 1-based position. Duplicate
 * ids in the input and text PostgreSQL cannot store (U+0000) are refused the same way.
 *
 * Rows go in with COPY: pg-copy-streams on a `pg` connection (a pool client is checked out
 * for the transaction), COPY from a blob on PGlite, batched multi-row INSERT otherwise. Into
 * an empty table (or with `replace`) the load is a bulk load (see `bulk-load.ts`): B-tree
 * indexes are built after the rows, the GIN index (on a server) takes new entries in its pending
 * list, merged as the load goes, and rows are written frozen (`COPY FREEZE`), so the table needs
 * no vacuum before index-only scans. A stored catalogue is replaced in side tables swapped in at
 * commit, so reads go on meanwhile (`swap`). With `upsert`, rows go to a temporary staging table
 * and are merged with `INSERT ... ON CONFLICT (id) DO UPDATE`, rows that did not change left
 * alone. The catalogue version (ETags) moves with every import. Run it against the primary.
 *
 * @example
 * await importPapers(pool, 'papers.jsonl.gz', { replace: true, onProgress: (p) => console.log(p.phase, p.records) });
 * await importPapers(pool, changedPapers, { upsert: true });
 */
export async function importPapers(db: Queryable, input: ImportInput, options: ImportOptions = {}): Promise<ImportResult> {
  const started = performance.now();
  const names = schemaNames(options.schema);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!(Number.isSafeInteger(batchSize) && batchSize > 0)) {
    throw new RangeError(`paperlist: "batchSize" must be a positive integer, got ${String(options.batchSize)}`);
  }
  if (options.replace === true && options.remove !== undefined && options.remove.length > 0) {
    throw new RangeError('paperlist: "remove" deletes from the stored catalogue; with "replace" there is none to delete from');
  }
  const swapLockWaitMs = options.swapLockWaitMs ?? DEFAULT_SWAP_LOCK_WAIT_MS;
  if (!(Number.isFinite(swapLockWaitMs) && swapLockWaitMs >= 0)) {
    throw new RangeError(`paperlist: "swapLockWaitMs" must be a number of milliseconds >= 0, got ${String(options.swapLockWaitMs)}`);
  }
  const method = chooseMethod(db, options.method ?? 'auto');
  const pglite = isPGlite(db);
  const { signal, onProgress } = options;
  signal?.throwIfAborted();

  const progress = { records: 0, bytes: undefined as number | undefined };
  const report = (phase: ImportProgress['phase']) =>
    onProgress?.(progress.bytes === undefined ? { phase, records: progress.records } : { phase, records: progress.records, bytes: progress.bytes });
  const papers = paperStream(input, signal, progress);

  let vacuum = false;
  const result = await withTransaction(db, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(74111, hashtext($1))', [names.schema]);
    await assertMigrated(tx, names.schema);
    const locked = await options.onLocked?.(tx);
    const remove = [...(options.remove ?? []), ...(locked?.remove ?? [])];
    const [row] = await queryRows<{ found: boolean }>(tx, `SELECT EXISTS (SELECT 1 FROM ${names.papers}) AS found`);
    const stored = row?.found === true;
    if (!pglite) {
      const memory = options.maintenanceWorkMem ?? '1GB';
      await tx.query(`SELECT set_config('maintenance_work_mem', $1, true), set_config('work_mem', $1, true)`, [memory]);
      // Rows over 8 KB (long abstracts) are compressed: lz4 where the server has it, much faster than pglz.
      if (await lz4Available(tx)) await tx.query(`SET LOCAL default_toast_compression = 'lz4'`);
    }
    // A whole catalogue (into an empty table, or replacing the stored one) is a bulk load; a
    // stored one is replaced beside the live tables unless told otherwise.
    const bulk: BulkLoad | null =
      options.replace === true || !stored
        ? await startBulkLoad(tx, names, { swap: stored && options.swap !== false, server: !pglite, swapLockWaitMs })
        : null;
    const staging = options.upsert === true && bulk === null;
    if (staging) {
      await tx.query(`CREATE TEMP TABLE paperlist_staging (LIKE ${names.papers} INCLUDING DEFAULTS) ON COMMIT DROP`);
    }
    // A whole catalogue gets ordinals 1..n and its posting lists; later papers get ordinals
    // after the largest stored one, and the lists, built for an older version, go stale.
    // Never an ordinal handed out before (see delta/retired-ordinals-migration.ts): not one of
    // the lists', nor one a write retired since.
    const [{ ord: storedOrd } = { ord: 0 }] =
      bulk !== null
        ? []
        : await queryRows<{ ord: number }>(
            tx,
            `SELECT greatest((SELECT coalesce(max(ord), 0) FROM ${names.papers}), (SELECT coalesce(max(ord), 0) FROM ${retiredNames(names).table}),
              (SELECT coalesce(postings_through, 0) FROM ${names.state})) AS ord`,
          );
    const annotationsOf = (id: string) => options.annotations?.get(id);
    const encoder =
      bulk === null
        ? await storedDictionary(tx, names, Number(storedOrd) + 1, Array.isArray(input) ? (input as readonly Paper[]) : undefined)
        : new PaperEncoder(new WordDictionary(), 1, { postings: new PostingsBuilder(), facets: new FacetFactsBuilder(annotationsOf) });
    const target = bulk?.papers ?? (staging ? 'pg_temp.paperlist_staging' : names.papers);
    const freeze = bulk !== null && method === 'copy';
    const writer: TableWriter = { tx, method, pglite, batchSize };

    // The id of each row written, by position: COPY errors name a row by its line.
    const written: string[] = [];
    async function* rows(): AsyncGenerator<Row> {
      for await (const numbered of papers) {
        written.push(numbered.paper.id);
        countProgress(progress, report);
        yield method === 'copy' ? encoder.copyLine(numbered.paper) : encoder.values(numbered.paper);
      }
    }
    try {
      await writeRows(writer, target, ALL_COLUMNS, rows(), freeze);
    } catch (error) {
      throw locateFailure(error, written);
    }
    report('loading');
    await writeRows(writer, bulk?.words ?? names.words, ['id', 'word'], wordRows(encoder), false);

    let inserted = written.length;
    let updated = 0;
    // An upsert moves the stored totals by the difference of the papers it touches (read before
    // and after), instead of recounting the whole table (0.3 s at 498k papers, for one paper).
    const touched = `id IN (SELECT id FROM pg_temp.paperlist_staging UNION ALL SELECT unnest($1::text[]))`;
    let totalsBefore: { stored: CatalogueTotals; touched: CatalogueTotals } | null = null;
    if (staging) {
      const stored = await lockedTotals(tx, names);
      if (stored !== null) totalsBefore = { stored, touched: await totalsWhere(tx, names, touched, [remove]) };
      const [merged] = await queryRows<{ inserted: number; updated: number }>(tx, mergeStatement(names));
      inserted = Number(merged?.inserted ?? 0);
      updated = Number(merged?.updated ?? 0);
    }
    // The annotations beside the papers: a whole catalogue's replace those stored, written
    // papers get theirs, removed papers lose theirs.
    if (bulk !== null) await deleteAnnotations(tx, names, null);
    if (options.annotations !== undefined && options.annotations.size > 0) {
      await writeAnnotations(tx, names, written, options.annotations, bulk === null);
    }
    let deleted = 0;
    if (remove.length > 0) {
      const gone = await queryRows<{ id: string }>(tx, `DELETE FROM ${bulk?.papers ?? names.papers} WHERE id = ANY($1::text[]) RETURNING id`, [remove]);
      deleted = gone.length;
      await deleteAnnotations(tx, names, gone.map((row) => row.id));
    }
    if (bulk !== null) {
      report('indexing');
      // The lists are made here while the server builds the indexes.
      const preparing = deleted === 0 ? encoder.whole?.postings.prepare() : undefined;
      preparing?.catch(() => {});
      await bulk.buildIndexes();
      await preparing;
      await bulk.finish();
      // Swapped-in tables were written without the live table's triggers: the change log says
      // "reload" (an in-place load logged it at its TRUNCATE).
      if (bulk.swapped) await recordReload(tx, names);
      // The table holds exactly what was written: the totals are known. A swap fired no trigger: move the version here.
      const { totals } = encoder;
      if (deleted > 0) {
        await refreshTotals(tx, names);
      } else {
        await tx.query(
          `UPDATE ${names.state} SET total = $1, title_len_sum = $2, authors_len_sum = $3, abstract_len_sum = $4
            ${bulk.swapped ? ', version = version + 1, changed_at = now()' : ''}`,
          [totals.papers, totals.title, totals.authors, totals.abstract],
        );
      }
    } else if (totalsBefore !== null) {
      await writeMovedTotals(tx, names, totalsBefore.stored, totalsBefore.touched, await totalsWhere(tx, names, touched, [remove]));
    } else {
      await refreshTotals(tx, names);
    }
    if (bulk !== null) await writePostings(writer, names, bulk.swapped, deleted === 0 ? encoder.whole : null);
    const analyze = bulk === null ? await worthAnalyzing(tx, names, written.length + deleted) : freeze && !bulk.swapped;
    if (analyze) await tx.query(`ANALYZE ${names.papers}, ${names.words}`);
    vacuum = bulk !== null && !freeze;
    const counts = { records: written.length, inserted, updated, unchanged: written.length - inserted - updated, deleted };
    return { ...counts, bulk: bulk !== null, swapped: bulk?.swapped ?? false };
  }).catch((error: unknown) => {
    throw explainFailure(error, signal);
  });
  // Rows written without FREEZE: set the visibility map (index-only scans) and statistics.
  if (vacuum) await db.query(`VACUUM (ANALYZE) ${names.papers}, ${names.words}`);
  report('done');
  return { ...result, method, durationMs: performance.now() - started };
}

/**
 * A change of fewer papers than this share of the table leaves the statistics to autovacuum:
 * `ANALYZE` samples 30,000 rows (0.8 s at 498k papers), far longer than a write of a few papers.
 */
const ANALYZE_SHARE = 0.05;

/** Whether a change of `changed` papers (not a bulk load) is worth an `ANALYZE` now: a large share of the table, or a table never analyzed. */
async function worthAnalyzing(tx: Queryable, names: SchemaNames, changed: number): Promise<boolean> {
  const [row] = await queryRows<{ rows: number }>(tx, `SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = $1::regclass`, [names.papers]);
  const rows = Number(row?.rows ?? -1);
  return rows <= 0 || changed >= ANALYZE_SHARE * rows;
}

/** A batch of at most this many papers given as an array reads only its own words from the dictionary. */
const SMALL_BATCH = 10_000;

/**
 * The encoder of papers added to a stored catalogue, over its word dictionary. A small batch
 * (an array of at most {@link SMALL_BATCH}: a write through the API) reads only the entries of
 * its own words, found by encoding it once with an empty dictionary: the whole dictionary is
 * 463k rows at 498k papers, 0.3 s to read for a write of one paper. Otherwise, or when that first
 * pass fails (a record invalid in a way the validation reports later), the whole dictionary.
 */
async function storedDictionary(tx: Queryable, names: SchemaNames, firstOrd: number, batch: readonly Paper[] | undefined): Promise<PaperEncoder> {
  if (batch !== undefined && batch.length <= SMALL_BATCH) {
    let words: string[] | null;
    try {
      const probe = new PaperEncoder(new WordDictionary());
      for (const paper of batch) probe.values(paper);
      words = Array.from(probe.dictionary.added(), ([, word]) => word);
    } catch {
      words = null;
    }
    if (words !== null) {
      const found = await queryRows<{ id: number; word: string }>(tx, `SELECT id, word FROM ${names.words} WHERE word = ANY($1::text[])`, [words]);
      const [last] = await queryRows<{ id: number }>(tx, `SELECT coalesce(max(id), 0) AS id FROM ${names.words}`);
      return new PaperEncoder(new WordDictionary(found.map((row) => [row.word, Number(row.id)] as const), Number(last?.id ?? 0) + 1), firstOrd);
    }
  }
  const stored = await queryRows<{ id: number; word: string }>(tx, `SELECT id, word FROM ${names.words}`);
  return new PaperEncoder(new WordDictionary(stored.map((row) => [row.word, Number(row.id)] as const)), firstOrd);
}

/**
 * Replaces the posting lists, paper facts and facet facts with those of the catalogue just
 * loaded (a whole catalogue), and records the version they are built for; it is the
 * transaction's last change of `papers`. `whole` null (papers were deleted after the load): they
 * are left out, and the source reads the word texts (and counts facets in SQL) until the next
 * whole import. A swap keeps the old ones readable until commit (row deletes, not TRUNCATE,
 * which would block readers).
 */
async function writePostings(writer: TableWriter, names: SchemaNames, swapped: boolean, whole: WholeCatalogue | null): Promise<void> {
  const { tx } = writer;
  const tables = [names.postings, names.facts, names.facetFacts, retiredNames(names).table];
  if (swapped) {
    for (const table of tables) await tx.query(`DELETE FROM ${table}`);
  } else await tx.query(`TRUNCATE ${tables.join(', ')}`);
  if (whole === null) {
    await tx.query(`UPDATE ${names.state} SET postings_version = NULL, facets_version = NULL, postings_through = NULL`);
    return;
  }
  const copy = writer.method === 'copy';
  await writeRows(writer, names.postings, ['word_id', 'df', 'data'], whole.postings.postingRows(copy), false);
  await writeRows(writer, names.facts, ['chunk', 'data'], whole.postings.factRows(copy), false);
  await writeRows(writer, names.facetFacts, ['facet', 'chunk', 'data'], whole.facets.rows(copy), false);
  await tx.query(
    `UPDATE ${names.state} SET postings_version = version, facets_version = version, postings_through = (SELECT coalesce(max(ord), 0) FROM ${names.papers})`,
  );
}

function* wordRows(encoder: PaperEncoder): Generator<Row> {
  for (const [id, word] of encoder.dictionary.added()) yield [String(id), word];
}

async function lz4Available(tx: Queryable): Promise<boolean> {
  const [row] = await queryRows<{ available: boolean }>(
    tx,
    `SELECT coalesce('lz4' = ANY(enumvals), false) AS available FROM pg_settings WHERE name = 'default_toast_compression'`,
  );
  return row?.available === true;
}

function countProgress(progress: { records: number }, report: (phase: 'loading') => void): void {
  progress.records++;
  if (progress.records % PROGRESS_INTERVAL === 0) report('loading');
}

/** Merges the staging table into papers; counts inserted and changed rows. */
function mergeStatement(names: SchemaNames): string {
  const columns = ALL_COLUMNS.join(', ');
  const updatable = ALL_COLUMNS.filter((column) => column !== 'id');
  const set = updatable.map((column) => `${column} = EXCLUDED.${column}`).join(', ');
  // A changed paper takes its new ordinal; the ordinal alone does not make a paper changed.
  const compared = updatable.filter((column) => column !== 'ord');
  const before = compared.map((column) => `p.${column}`).join(', ');
  const after = compared.map((column) => `EXCLUDED.${column}`).join(', ');
  return `WITH merged AS (
      INSERT INTO ${names.papers} AS p (${columns})
      SELECT ${columns} FROM pg_temp.paperlist_staging
      ON CONFLICT (id) DO UPDATE SET ${set}
      WHERE (${before}) IS DISTINCT FROM (${after})
      RETURNING (p.xmax::text = '0') AS inserted
    )
    SELECT (count(*) FILTER (WHERE inserted))::float8 AS inserted,
      (count(*) FILTER (WHERE NOT inserted))::float8 AS updated
    FROM merged`;
}
