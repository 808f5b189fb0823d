import { decodePostings, type DecodedPostings } from './posting-codec.js';
import { FACT_FIELDS, FACTS_CHUNK } from './postings-builder.js';
import type { SchemaNames } from './schema.js';
import { prefixRange } from './text-columns.js';

/**
 * The papers one search term (one word, the last one a prefix) matches, from the posting lists
 * of every dictionary word starting with it: ordinals ascending, and per field the term's
 * occurrences as a whole word (`*Whole`) and in all (whole or prefix: `*All`).
 */
export interface TermPostings {
  ords: Int32Array;
  titleAll: Int32Array;
  abstractAll: Int32Array;
  authorsAll: Int32Array;
  /** `null`: the word itself is in no paper (every occurrence is a prefix one). */
  titleWhole: Int32Array | null;
  abstractWhole: Int32Array | null;
  authorsWhole: Int32Array | null;
  /** Memory held, for the cache's budget. */
  bytes: number;
}

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
  data: Uint8Array | null;
  version: string | null;
}

/**
 * Reads a term's posting lists (every word in the dictionary range of `prefix`) and merges them.
 * The statement's first row is the catalogue's version, read in the same snapshot as the lists:
 * unless they were built for `version`, {@link StalePostingsError}.
 */
export async function readTermPostings(names: SchemaNames, prefix: string, version: string, run: RunStatement): Promise<TermPostings> {
  const upper = prefixRange(prefix).upper ?? `${prefix}\u{10FFFF}\u{10FFFF}`;
  const lists = await readLists(names, 'w.word >= $1 AND w.word < $2', [prefix, upper], version, run);
  return mergeLists(lists!, prefix);
}

/** Entries decoded between two turns of the event loop. */
const YIELD_EVERY = 500_000;

/** More (paper, word) entries than this in one substring's words: the lists are not read (see readSubstringPostings). */
export const MAX_SUBSTRING_ENTRIES = 4_000_000;

/**
 * The merged lists of every dictionary word containing `needle` (a substring filter's
 * candidates), or `null` when those words hold more than {@link MAX_SUBSTRING_ENTRIES} entries.
 */
export async function readSubstringPostings(names: SchemaNames, needle: string, version: string, run: RunStatement): Promise<TermPostings | null> {
  const lists = await readLists(names, 'strpos(w.word, $1) > 0', [needle], version, run, MAX_SUBSTRING_ENTRIES);
  return lists === null ? null : mergeLists(lists, null);
}

/**
 * The lists of the dictionary words matching `condition` (on `w.word`), with the catalogue's
 * version read in the same snapshot (else {@link StalePostingsError}); `null` when they hold more
 * than `cap` entries (then no list is sent).
 */
async function readLists(
  names: SchemaNames,
  condition: string,
  params: unknown[],
  version: string,
  run: RunStatement,
  cap?: number,
): Promise<{ word: string; postings: DecodedPostings }[] | null> {
  const capped = cap === undefined ? 'p.data' : `CASE WHEN sum(p.df) OVER () <= ${cap} THEN p.data END`;
  const rows = await run<PostingRow>(
    `SELECT NULL::text AS word, 0 AS df, NULL::bytea AS data,
        CASE WHEN postings_version = version THEN version::text END AS version
      FROM ${names.state}
    UNION ALL
    SELECT w.word, p.df, ${capped}, NULL FROM ${names.words} w JOIN ${names.postings} p ON p.word_id = w.id
      WHERE ${condition}`,
    params,
  );
  const head = rows.find((row) => row.word === null);
  if (head === undefined || head.version === null || `${head.version}` !== version) throw new StalePostingsError('paperlist: the posting lists are stale');
  const found = rows.filter((row) => row.word !== null);
  if (found.some((row) => row.data === null)) return null;
  // The lists of a short prefix hold millions of entries: decoding them gives the event loop
  // (the server's other requests) a turn every so often.
  const lists: { word: string; postings: DecodedPostings }[] = [];
  let since = 0;
  for (const row of found) {
    const df = Number(row.df);
    lists.push({ word: row.word!, postings: decodePostings(toBytes(row.data!), df) });
    since += df;
    if (since >= YIELD_EVERY) {
      since = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return lists;
}

/** The union of the words' lists: a paper's counts summed over the words it holds. */
function mergeLists(lists: { word: string; postings: DecodedPostings }[], prefix: string | null): TermPostings {
  const exact = lists.find((list) => list.word === prefix)?.postings ?? null;
  if (lists.length === 0) {
    const none = new Int32Array(0);
    return { ords: none, titleAll: none, abstractAll: none, authorsAll: none, titleWhole: null, abstractWhole: null, authorsWhole: null, bytes: 0 };
  }
  if (lists.length === 1) {
    const { ords, title, abstract, authors } = lists[0]!.postings;
    return {
      ords,
      titleAll: title,
      abstractAll: abstract,
      authorsAll: authors,
      titleWhole: exact === null ? null : title,
      abstractWhole: exact === null ? null : abstract,
      authorsWhole: exact === null ? null : authors,
      bytes: 16 * ords.length,
    };
  }
  let max = 0;
  let total = 0;
  for (const { postings } of lists) {
    total += postings.ords.length;
    if (postings.ords.length > 0) max = Math.max(max, postings.ords[postings.ords.length - 1]!);
  }
  // Keys (ordinal, list) must stay exact in a double.
  const out = total * 8 < max && (max + 1) * lists.length < 2 ** 52 ? mergeSorted(lists) : mergeDense(lists, max);
  const n = out.ords.length;
  const merged: TermPostings = {
    ...out,
    titleWhole: exact === null ? null : new Int32Array(n),
    abstractWhole: exact === null ? null : new Int32Array(n),
    authorsWhole: exact === null ? null : new Int32Array(n),
    bytes: (exact === null ? 16 : 28) * n,
  };
  if (exact !== null) {
    // The exact word's own counts, placed by a walk of both ascending lists.
    let j = 0;
    for (let i = 0; i < exact.ords.length; i++) {
      while (merged.ords[j] !== exact.ords[i]) j++;
      merged.titleWhole![j] = exact.title[i]!;
      merged.abstractWhole![j] = exact.abstract[i]!;
      merged.authorsWhole![j] = exact.authors[i]!;
    }
  }
  return merged;
}

type MergedCounts = Pick<TermPostings, 'ords' | 'titleAll' | 'abstractAll' | 'authorsAll'>;

/** Counts gathered by ordinal, then read off in order: linear in the papers plus the largest ordinal (lists holding many papers). */
function mergeDense(lists: readonly { postings: DecodedPostings }[], max: number): MergedCounts {
  const title = new Int32Array(max + 1);
  const abstract = new Int32Array(max + 1);
  const authors = new Int32Array(max + 1);
  const held = new Uint8Array(max + 1);
  for (const { postings } of lists) {
    const { ords } = postings;
    for (let i = 0; i < ords.length; i++) {
      const ord = ords[i]!;
      held[ord] = 1;
      title[ord]! += postings.title[i]!;
      abstract[ord]! += postings.abstract[i]!;
      authors[ord]! += postings.authors[i]!;
    }
  }
  let n = 0;
  for (let ord = 0; ord <= max; ord++) n += held[ord]!;
  const out = { ords: new Int32Array(n), titleAll: new Int32Array(n), abstractAll: new Int32Array(n), authorsAll: new Int32Array(n) };
  let at = 0;
  for (let ord = 0; ord <= max; ord++) {
    if (held[ord] === 0) continue;
    out.ords[at] = ord;
    out.titleAll[at] = title[ord]!;
    out.abstractAll[at] = abstract[ord]!;
    out.authorsAll[at] = authors[ord]!;
    at++;
  }
  return out;
}

/**
 * The same from one numeric sort of (ordinal, list) keys (lists holding few papers, where a pass
 * over every ordinal would cost more): each list's entries come in its own ascending order.
 */
function mergeSorted(lists: readonly { postings: DecodedPostings }[]): MergedCounts {
  const k = lists.length;
  let total = 0;
  for (const { postings } of lists) total += postings.ords.length;
  const keys = new Float64Array(total);
  let at = 0;
  for (let l = 0; l < k; l++) for (const ord of lists[l]!.postings.ords) keys[at++] = ord * k + l;
  keys.sort();
  const cursors = new Int32Array(k);
  const ords = new Int32Array(total);
  const titleAll = new Int32Array(total);
  const abstractAll = new Int32Array(total);
  const authorsAll = new Int32Array(total);
  let n = 0;
  for (let i = 0; i < total; i++) {
    const key = keys[i]!;
    const l = key % k;
    const ord = (key - l) / k;
    const { postings } = lists[l]!;
    const e = cursors[l]!++;
    if (n === 0 || ords[n - 1] !== ord) ords[n++] = ord;
    titleAll[n - 1]! += postings.title[e]!;
    abstractAll[n - 1]! += postings.abstract[e]!;
    authorsAll[n - 1]! += postings.authors[e]!;
  }
  return { ords: ords.slice(0, n), titleAll: titleAll.slice(0, n), abstractAll: abstractAll.slice(0, n), authorsAll: authorsAll.slice(0, n) };
}

/** The paper facts (see postings-builder.ts's FACT_FIELDS), each by ordinal. */
export type PaperFacts = Record<(typeof FACT_FIELDS)[number], Int32Array>;

/** Reads the paper facts, built for `version` (else {@link StalePostingsError}). */
export async function readFacts(names: SchemaNames, version: string, run: RunStatement): Promise<PaperFacts> {
  const rows = await run<{ chunk: number; data: Uint8Array | null; version: string | null }>(
    `SELECT -1 AS chunk, NULL::bytea AS data, CASE WHEN postings_version = version THEN version::text END AS version FROM ${names.state}
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
