import type { MergePostings, RawPostingList, TermPostings } from './posting-merge.js';
import { FACT_FIELDS, FACTS_CHUNK } from './postings-builder.js';
import type { SchemaNames } from './schema.js';
import { prefixRange } from './text-columns.js';

export type { MergePostings, RawPostingList, TermPostings } from './posting-merge.js';

/**
 * The posting lists cannot answer this request: they were built for another catalogue version
 * (a write since the last whole import, or one landing meanwhile), or a substring stands for too
 * many words. The source then answers from the word texts, as before the lists existed.
 */
export class StalePostingsError extends Error {
  override readonly name = 'StalePostingsError';
}

/** Runs one statement (shared, or within a request's budget). */
export type RunStatement = <R>(text: string, params: unknown[]) => Promise<R[]>;

interface PostingRow {
  word: string | null;
  df: number;
  data: Uint8Array | string | null;
  version: string | null;
}

/**
 * Reads a term's posting lists (every word in the dictionary range of `prefix`) and merges them
 * with `merge` (on a worker thread, or in this one).
 * The statement's first row is the catalogue's version, read in the same snapshot as the lists:
 * unless they were built for `version`, {@link StalePostingsError}.
 */
export async function readTermPostings(names: SchemaNames, prefix: string, version: string, run: RunStatement, merge: MergePostings): Promise<TermPostings> {
  const upper = prefixRange(prefix).upper ?? `${prefix}\u{10FFFF}\u{10FFFF}`;
  const lists = await readLists(names, 'w.word >= $1 AND w.word < $2', [prefix, upper], version, run);
  return merge(lists, prefix);
}

/** More (paper, word) entries than this in one substring's words: the lists are not read (see readSubstringPostings). */
export const MAX_SUBSTRING_ENTRIES = 4_000_000;

/**
 * The merged lists of the dictionary words `words` (a substring filter's candidates: see
 * dictionary-words.ts), or `null` when those words hold more than {@link MAX_SUBSTRING_ENTRIES}
 * entries (then nothing is read).
 */
export async function readSubstringPostings(
  names: SchemaNames,
  words: { ids: readonly number[]; entries: number },
  version: string,
  run: RunStatement,
  merge: MergePostings,
): Promise<TermPostings | null> {
  if (words.entries > MAX_SUBSTRING_ENTRIES) return null;
  const lists = await readLists(names, 'w.id = ANY($1::int4[])', [`{${words.ids.join(',')}}`], version, run);
  return merge(lists, null);
}

/**
 * The lists of the dictionary words matching `condition` (on `w.word` or `w.id`), with the
 * catalogue's version read in the same snapshot (else {@link StalePostingsError}).
 */
async function readLists(names: SchemaNames, condition: string, params: unknown[], version: string, run: RunStatement): Promise<RawPostingList[]> {
  const rows = await run<PostingRow>(
    `SELECT NULL::text AS word, 0 AS df, NULL::bytea AS data,
        postings_version::text AS version
      FROM ${names.state}
    UNION ALL
    SELECT w.word, p.df, p.data, NULL FROM ${names.words} w JOIN ${names.postings} p ON p.word_id = w.id
      WHERE ${condition}`,
    params,
  );
  const head = rows.find((row) => row.word === null);
  if (head === undefined || head.version === null || `${head.version}` !== version) throw new StalePostingsError('paperlist: the posting lists are stale');
  return rows.filter((row) => row.word !== null).map((row) => ({ word: row.word!, df: Number(row.df), data: toBytes(row.data!) }));
}

/** The paper facts (see postings-builder.ts's FACT_FIELDS), each by ordinal. */
export type PaperFacts = Record<(typeof FACT_FIELDS)[number], Int32Array>;

/** Reads the paper facts, built for `version` (else {@link StalePostingsError}). */
export async function readFacts(names: SchemaNames, version: string, run: RunStatement): Promise<PaperFacts> {
  const rows = await run<{ chunk: number; data: Uint8Array | null; version: string | null }>(
    `SELECT -1 AS chunk, NULL::bytea AS data, postings_version::text AS version FROM ${names.state}
    UNION ALL
    SELECT chunk, data, NULL FROM ${names.facts}`,
    [],
  );
  const head = rows.find((row) => Number(row.chunk) === -1);
  if (head === undefined || head.version === null || `${head.version}` !== version) throw new StalePostingsError('paperlist: the posting lists are stale');
  const width = 4 * FACT_FIELDS.length;
  const chunks = rows.filter((row) => Number(row.chunk) >= 0).map((row) => ({ from: Number(row.chunk) * FACTS_CHUNK, bytes: toBytes(row.data!) }));
  const size = chunks.reduce((most, { from, bytes }) => Math.max(most, from + bytes.length / width), 0);
  const facts = Object.fromEntries(FACT_FIELDS.map((field) => [field, new Int32Array(size)])) as PaperFacts;
  const columns = FACT_FIELDS.map((field) => facts[field]);
  for (const { from, bytes } of chunks) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < bytes.length / width; i++) {
      for (let k = 0; k < columns.length; k++) columns[k]![from + i] = view.getInt32(width * i + 4 * k, true);
    }
  }
  return facts;
}

/** A bytea as the driver hands it back: a Buffer (pg), a Uint8Array (PGlite) or its `\x` hex text. */
export function toBytes(value: Uint8Array | string): Uint8Array {
  if (typeof value !== 'string') return value;
  return Buffer.from(value.startsWith('\\x') ? value.slice(2) : value, 'hex');
}
