import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { copyRow } from './copy-format.js';
import { isPGlite, type Queryable } from './db.js';
import { shiftCopyLine } from './import-errors.js';

/**
 * How an import sends rows. `auto`: COPY where the connection takes it (node-postgres through
 * pg-copy-streams, PGlite from a blob), multi-row INSERT otherwise.
 */
export function chooseMethod(db: Queryable, wanted: 'auto' | 'copy' | 'insert'): 'copy' | 'insert' {
  if (wanted !== 'auto' && wanted !== 'copy' && wanted !== 'insert') {
    throw new RangeError(`paperlist: "method" must be "auto", "copy" or "insert", got ${JSON.stringify(wanted)}`);
  }
  if (wanted === 'insert') return 'insert';
  const copyable = isPGlite(db) || isNodePostgres(db);
  if (wanted === 'copy' && !copyable) {
    throw new Error('paperlist: COPY needs a pg.Pool, a pg.Client or PGlite; use method "insert" for other connections');
  }
  return copyable ? 'copy' : 'insert';
}

/** node-postgres: a `pg.Pool` or `pg.Client` (whose sessions take pg-copy-streams' submittables). */
function isNodePostgres(db: Queryable): boolean {
  const candidate = db as { totalCount?: unknown; processID?: unknown; connection?: unknown };
  return typeof candidate.totalCount === 'number' || ('processID' in candidate && typeof candidate.connection === 'object');
}

/** A row: its values as text, or already a line of COPY text format. */
export type Row = (string | null)[] | string;

/** A session inside the import's transaction, and how rows go through it. */
export interface TableWriter {
  tx: Queryable;
  method: 'copy' | 'insert';
  pglite: boolean;
  batchSize: number;
}

/**
 * Writes rows into a table: one COPY FROM STDIN through pg-copy-streams on a `pg` session,
 * COPY from a blob per batch on PGlite, or a multi-row INSERT per batch. Errors keep
 * PostgreSQL's context; `COPY table, line N` is rewritten to count from the first row.
 */
export async function writeRows(
  writer: TableWriter,
  table: string,
  columns: readonly string[],
  rows: AsyncIterable<Row> | Iterable<Row>,
  freeze: boolean,
): Promise<void> {
  const { tx, method, pglite, batchSize } = writer;
  const list = columns.join(', ');
  if (method === 'copy' && !pglite) {
    const { from: copyFrom } = await loadCopyStreams();
    const submit = tx.query as unknown as (submittable: unknown) => NodeJS.WritableStream;
    const stream = submit.call(tx, copyFrom(`COPY ${table} (${list}) FROM STDIN${freeze ? ' WITH (FREEZE)' : ''}`));
    // Encoding runs up to COPY_LEAD_BYTES ahead of the server: the two then use both cores while
    // the server stops to merge a GIN pending list (seconds), instead of the rows waiting on it.
    await pipeline(Readable.from(utf8Chunks(rows), { objectMode: false, highWaterMark: COPY_LEAD_BYTES }), stream);
    return;
  }
  let batch: Row[] = [];
  let before = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      if (method === 'copy') {
        const text = batch.map((values) => (typeof values === 'string' ? values : copyRow(values))).join('');
        const query = tx.query as (text: string, params: unknown[], options: { blob: Blob }) => Promise<unknown>;
        await query.call(tx, `COPY ${table} (${list}) FROM '/dev/blob'${freeze ? ' WITH (FREEZE)' : ''}`, [], { blob: new Blob([text]) });
      } else {
        const records = batch.map((values) => {
          if (typeof values === 'string') throw new Error('paperlist: INSERT needs values, not COPY lines');
          return Object.fromEntries(columns.map((column, i) => [column, values[i]]));
        });
        const json = JSON.stringify(records);
        await tx.query(`INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`, [json]);
      }
    } catch (error) {
      throw shiftCopyLine(error, before);
    }
    before += batch.length;
    batch = [];
  };
  for await (const values of rows) {
    batch.push(values);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
}

const CHUNK_BYTES = 1 << 18;
/** How far the rows' encoding may run ahead of COPY on the server, in bytes. */
const COPY_LEAD_BYTES = 64 << 20;

/**
 * COPY lines as UTF-8 chunks of about 256 KiB, each line encoded into the chunk as it comes.
 * Concatenating lines into one string per chunk and encoding that instead costs five times
 * more: the string is a rope of thousands of pieces, flattened (often to two-byte
 * characters) before it can be encoded.
 */
async function* utf8Chunks(rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<Buffer> {
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for await (const values of rows) {
    const line = typeof values === 'string' ? values : copyRow(values);
    // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, two units, takes 4).
    if (used + line.length * 3 > chunk.length) {
      if (used > 0) yield chunk.subarray(0, used);
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, line.length * 3));
      used = 0;
    }
    used += chunk.write(line, used);
  }
  if (used > 0) yield chunk.subarray(0, used);
}


interface CopyStreams {
  from(sql: string): unknown;
}

async function loadCopyStreams(): Promise<CopyStreams> {
  const loaded = (await import('pg-copy-streams')) as unknown as CopyStreams & { default?: CopyStreams };
  return typeof loaded.from === 'function' ? loaded : loaded.default!;
}
