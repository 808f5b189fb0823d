import { CUT_FACETS, MAX_FACET_LIMIT, type FacetBucket, type FacetCounts, type FacetField } from '@paperlist/core';
import type { FactColumn } from './facet-facts-builder.js';
import type { SchemaNames } from './schema.js';
import { StalePostingsError, toBytes, type RunStatement } from './term-postings.js';

/** One column's facts (see facet-facts-builder.ts): its values by rank, and each paper's ranks. */
export interface FacetFacts {
  /** The distinct values, by code points. */
  values: string[];
  /** Per ordinal, where its ranks start in `ranks` (and, at `ordinal + 1`, end). */
  starts: Int32Array;
  ranks: Int32Array;
}

/**
 * Reads one column's facts, built for `version` (else {@link StalePostingsError}). The values'
 * JSON is parsed a row at a time, with a turn of the event loop between rows: an `author`
 * facet of a large catalogue has hundreds of thousands of names.
 */
export async function readFacetFacts(names: SchemaNames, field: FactColumn, version: string, run: RunStatement): Promise<FacetFacts> {
  const rows = await run<{ head: boolean; chunk: number | null; data: Uint8Array | string | null; version: string | null }>(
    `SELECT true AS head, NULL::int4 AS chunk, NULL::bytea AS data, facets_version::text AS version FROM ${names.state}
    UNION ALL
    SELECT false, chunk, data, NULL FROM ${names.facetFacts} WHERE facet = $1`,
    [field],
  );
  const head = rows.find((row) => row.head);
  if (head === undefined || head.version === null || `${head.version}` !== version) throw new StalePostingsError('paperlist: the facet facts are stale');
  const chunks = rows.filter((row) => !row.head).map((row) => ({ chunk: Number(row.chunk), bytes: toBytes(row.data!) }));
  const values: string[] = [];
  for (const { bytes } of chunks.filter(({ chunk }) => chunk < 0).sort((a, b) => b.chunk - a.chunk)) {
    for (const value of JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as string[]) values.push(value);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const papers = chunks.filter(({ chunk }) => chunk >= 0).sort((a, b) => a.chunk - b.chunk);
  const views = papers.map(({ bytes }) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const ordinals = views.reduce((sum, view) => sum + view.getInt32(0, true), 0);
  const starts = new Int32Array(ordinals + 1);
  const ranks = new Int32Array(views.reduce((sum, view) => sum + view.byteLength / 4 - 1 - view.getInt32(0, true), 0));
  let ord = 0;
  let at = 0;
  for (const view of views) {
    const n = view.getInt32(0, true);
    for (let i = 0; i < n; i++, ord++) starts[ord + 1] = starts[ord]! + view.getInt32(4 + 4 * i, true);
    for (let offset = 4 + 4 * n; offset < view.byteLength; offset += 4) ranks[at++] = view.getInt32(offset, true);
  }
  return { values, starts, ranks };
}

/**
 * A facet's buckets over the matching papers (`ords`, or every paper when `null`), as
 * `FacetCounts` wants them: every value that occurs, or for the {@link CUT_FACETS} only the best
 * `limit` (count descending, then value by code points, which is rank order), and the `null`
 * bucket (the papers without a value).
 */
export function countFacet(facts: FacetFacts, field: FacetField, ords: Int32Array | null, limit = MAX_FACET_LIMIT): FacetBucket[] {
  const { values } = facts;
  const { counts, nulls } = countRanks(facts, ords);
  const threshold = CUT_FACETS.has(field) ? countThreshold(counts, limit) : { count: 1, ties: Infinity };
  const buckets: FacetBucket[] = [];
  let ties = threshold.ties;
  for (let rank = 0; rank < counts.length; rank++) {
    const count = counts[rank]!;
    if (count < threshold.count || (count === threshold.count && ties-- <= 0)) continue;
    buckets.push({ value: values[rank]!, count });
  }
  buckets.push({ value: null, count: nulls });
  return buckets;
}

/** Each value's count (by rank) over the papers `ords` (every paper when `null`), and the papers without a value. */
export function countRanks(facts: FacetFacts, ords: Int32Array | null): { counts: Int32Array; nulls: number } {
  const { values, starts, ranks } = facts;
  const counts = new Int32Array(values.length);
  let nulls = 0;
  if (ords === null) {
    for (let i = 0; i < ranks.length; i++) counts[ranks[i]!]!++;
    // Ordinal 0 is no paper.
    for (let ord = 1; ord + 1 < starts.length; ord++) if (starts[ord] === starts[ord + 1]) nulls++;
  } else {
    for (let k = 0; k < ords.length; k++) {
      const ord = ords[k]!;
      const from = starts[ord]!;
      const to = starts[ord + 1]!;
      if (from === to) nulls++;
      for (let i = from; i < to; i++) counts[ranks[i]!]!++;
    }
  }
  return { counts, nulls };
}

/**
 * What the best `limit` counts are made of: every count above `count`, and the first `ties`
 * (by rank) of those equal to it. Counts are small integers: a histogram finds it in linear time.
 */
function countThreshold(counts: Int32Array, limit: number): { count: number; ties: number } {
  let most = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i]! > most) most = counts[i]!;
  const histogram = new Int32Array(most + 1);
  for (let i = 0; i < counts.length; i++) histogram[counts[i]!]!++;
  let above = 0;
  for (let count = most; count >= 1; count--) {
    if (above + histogram[count]! >= limit) return { count, ties: limit - above };
    above += histogram[count]!;
  }
  return { count: 1, ties: Infinity };
}

/** Reads (once per catalogue version, see `CatalogueCache.facetFacts`) and counts each facet asked for. */
export async function factFacets(
  fields: readonly FacetField[],
  limit: number | undefined,
  ords: Int32Array | null,
  factsOf: (field: FacetField) => Promise<FacetFacts>,
): Promise<FacetCounts> {
  // The fields' first reads of a catalogue version run side by side.
  const facts = await Promise.all(fields.map(factsOf));
  const out: FacetCounts = {};
  fields.forEach((field, i) => (out[field] = countFacet(facts[i]!, field, ords, limit)));
  return out;
}
