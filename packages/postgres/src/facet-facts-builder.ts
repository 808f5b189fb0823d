import { compareCodePoints, facetValues, FACET_FIELDS, type FacetField, type Paper, type PaperAnnotations } from '@paperlist/core';
import { grown } from './grown-array.js';

/** A row for table-writer.ts's `writeRows` (its `Row`; not imported: table-writer needs copy-format, which needs this). */
type Row = (string | null)[] | string;

/** Papers per ranks row of `paperlist_facet_facts`. */
export const FACET_PAPERS_CHUNK = 65_536;
/** Values per values row of `paperlist_facet_facts`. */
export const FACET_VALUES_CHUNK = 16_384;

/**
 * The columns of `paperlist_facet_facts`: the facet fields, and each paper's `published` day
 * (for the date filters; a day compares as a string).
 */
export type FactColumn = FacetField | 'published';
export const FACT_COLUMNS: readonly FactColumn[] = [...FACET_FIELDS, 'published'];

/** One column's values of a whole catalogue, being gathered. */
class FacetColumn {
  /** Value → its number in order of first sight. */
  readonly ids = new Map<string, number>();
  readonly values: string[] = [];
  /** Per ordinal: how many values the paper has. */
  counts: Int32Array = new Int32Array(1 << 16);
  /** The papers' values (numbers of first sight), paper after paper. */
  list: Int32Array = new Int32Array(1 << 16);
  length = 0;

  add(ord: number, values: readonly string[]): void {
    if (ord >= this.counts.length) this.counts = grown(this.counts, ord + 1);
    this.counts[ord] = values.length;
    if (this.length + values.length > this.list.length) this.list = grown(this.list, this.length + values.length);
    for (const value of values) {
      let id = this.ids.get(value);
      if (id === undefined) {
        id = this.values.length;
        this.ids.set(value, id);
        this.values.push(value);
      }
      this.list[this.length++] = id;
    }
  }
}

/**
 * The facet values of a whole catalogue, by ordinal, gathered while an import encodes its
 * papers, then written as rows of `paperlist_facet_facts` (see facet-facts-migration.ts), so
 * that the direct SQL source counts facets over a large match set without reading its rows.
 * A paper's values are the core's own `facetValues` (its year, venue key, proceeding, each
 * distinct author name, task and method slugs): the reference's, by construction.
 */
export class FacetFactsBuilder {
  private readonly columns = new Map<FactColumn, FacetColumn>(FACT_COLUMNS.map((field) => [field, new FacetColumn()]));
  private maxOrd = 0;

  /** @param annotationsOf the tasks and methods imported with each paper, by id. */
  constructor(private readonly annotationsOf: (id: string) => PaperAnnotations | undefined) {}

  /** Adds one paper; ordinals must ascend. */
  addPaper(ord: number, paper: Paper): void {
    if (ord <= this.maxOrd) throw new Error(`paperlist: facet facts need ascending ordinals (${ord} after ${this.maxOrd})`);
    this.maxOrd = ord;
    const annotations = this.annotationsOf(paper.id);
    for (const [field, column] of this.columns) {
      column.add(ord, field === 'published' ? (paper.published === null ? [] : [paper.published]) : facetValues(paper, field, annotations));
    }
  }

  /**
   * Rows of `paperlist_facet_facts (facet, chunk, data)`. Per column, the values sorted by code
   * points (a value's rank is its place there) as JSON arrays in rows of negative chunk numbers
   * (-1 the first {@link FACET_VALUES_CHUNK}, -2 the next…); and per {@link FACET_PAPERS_CHUNK}
   * ordinals (chunk 0 from ordinal 0), as little-endian int32s: the number of papers in the
   * chunk, each one's number of values, then all their ranks, paper after paper.
   */
  *rows(copy: boolean): Generator<Row> {
    const row = (field: FactColumn, chunk: number, bytes: Buffer): Row => {
      const hex = bytes.toString('hex');
      // COPY text format reads `\\` as one backslash: bytea's hex input is `\x...`.
      return copy ? `${field}\t${chunk}\t\\\\x${hex}\n` : [field, String(chunk), `\\x${hex}`];
    };
    for (const [field, column] of this.columns) {
      const order = sortedIds(column.values);
      const rankOf = new Int32Array(order.length);
      for (let rank = 0; rank < order.length; rank++) rankOf[order[rank]!] = rank;
      for (let from = 0, chunk = -1; from < order.length; from += FACET_VALUES_CHUNK, chunk--) {
        const values = Array.from(order.subarray(from, from + FACET_VALUES_CHUNK), (id) => column.values[id]!);
        yield row(field, chunk, Buffer.from(JSON.stringify(values)));
      }
      let at = 0;
      for (let from = 0, chunk = 0; from <= this.maxOrd; from += FACET_PAPERS_CHUNK, chunk++) {
        const to = Math.min(this.maxOrd + 1, from + FACET_PAPERS_CHUNK);
        let values = 0;
        for (let ord = from; ord < to; ord++) values += column.counts[ord]!;
        const bytes = Buffer.alloc(4 * (1 + to - from + values));
        bytes.writeInt32LE(to - from, 0);
        let out = 4;
        for (let ord = from; ord < to; ord++, out += 4) bytes.writeInt32LE(column.counts[ord]!, out);
        for (let k = 0; k < values; k++, out += 4) bytes.writeInt32LE(rankOf[column.list[at++]!]!, out);
        yield row(field, chunk, bytes);
      }
    }
  }
}

/** Value numbers in the order of their values by code points. */
function sortedIds(values: readonly string[]): Int32Array {
  // Without surrogates, UTF-16 order is code point order, and the engine's own comparison is much faster.
  const compare = values.some((value) => SURROGATE.test(value)) ? compareCodePoints : (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return Int32Array.from(values.keys()).sort((a, b) => compare(values[a]!, values[b]!));
}

const SURROGATE = /[\ud800-\udfff]/;
