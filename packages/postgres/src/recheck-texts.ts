import type { SchemaNames } from './schema.js';
import { textsEndToEnd } from './texts-end-to-end.js';
import { StalePostingsError, type RunStatement } from './term-postings.js';

/**
 * The papers of a catalogue version whose title (or abstract) a substring filter must check on
 * the text itself (the recheck flag of postings-builder.ts: non-ASCII, or a word the dictionary
 * cuts; about 1 % of a catalogue), with that text lower-cased as the SQL filter lower-cases it,
 * held in memory: each distinct needle is then a search of a few megabytes here instead of a
 * `LIKE` over thousands of stored texts on the server (about 50 ms of its CPU for the
 * abstracts of 498k papers).
 */
export class RecheckTexts {
  private constructor(
    /** The papers' ordinals, ascending. */
    private readonly ords: Int32Array,
    /** Their texts, each followed by a NUL (which no needle holds and no stored text does). */
    private readonly text: string,
    /** Per paper: where its text starts; one more entry: the end. */
    private readonly starts: Int32Array,
  ) {}

  /** Papers (ordinals, ascending) and their lower-cased texts. */
  static of(ords: Int32Array, texts: readonly string[]): RecheckTexts {
    if (ords.length !== texts.length) throw new Error('paperlist: one text per paper');
    const { text, starts } = textsEndToEnd(texts, '\u0000');
    return new RecheckTexts(ords, text, starts);
  }

  /** Number of papers. */
  get size(): number {
    return this.ords.length;
  }

  /** Bytes held (the text counted at two bytes a character). */
  get bytes(): number {
    return 2 * this.text.length + this.ords.byteLength + this.starts.byteLength;
  }

  /**
   * The papers whose text contains `needle` (letters and digits: the NUL between texts keeps a
   * match inside one), ascending.
   */
  containing(needle: string): number[] {
    const found: number[] = [];
    let paper = 0;
    let at = needle === '' ? -1 : this.text.indexOf(needle);
    while (at >= 0) {
      while (this.starts[paper + 1]! <= at) paper++;
      found.push(this.ords[paper]!);
      at = this.text.indexOf(needle, this.starts[paper + 1]!);
    }
    return found;
  }
}

/**
 * Reads the `field` texts of the papers `ords` (ascending), lower-cased as the SQL filter does
 * (list-sql.ts), with the lists' generation (`postings_version`) in the same snapshot:
 * {@link StalePostingsError} unless the lists are still those of `version`. Papers retired by
 * writes since the lists were built are left out.
 */
export async function readRecheckTexts(names: SchemaNames, field: 'title' | 'abstract', ords: Int32Array, version: string, run: RunStatement): Promise<RecheckTexts> {
  const rows = await run<{ ord: number | null; text: string | null }>(
    `SELECT NULL::int4 AS ord, postings_version::text AS text FROM ${names.state}
    UNION ALL
    SELECT ord, coalesce(${field}_lower, lower(${field} COLLATE "C")) FROM ${names.papers} WHERE ord = ANY($1::int4[])`,
    [`{${ords.join(',')}}`],
  );
  const head = rows.find((row) => row.ord === null);
  if (head === undefined || head.text === null || `${head.text}` !== version) throw new StalePostingsError('paperlist: the posting lists are stale');
  const byOrd = new Map<number, string>();
  for (const row of rows) if (row.ord !== null) byOrd.set(Number(row.ord), row.text ?? '');
  // A flagged paper gone from the table was retired by a write (delta/delta-log.ts): it never matches again.
  const present = ords.filter((ord) => byOrd.has(ord));
  return RecheckTexts.of(present, Array.from(present, (ord) => byOrd.get(ord)!));
}
