import { queryRows, type Queryable } from './db.js';
import type { SchemaNames } from './schema.js';

/** The catalogue's totals as `paperlist_state` keeps them: papers, and each field's summed length (BM25's averages). */
export interface CatalogueTotals {
  papers: number;
  title: number;
  authors: number;
  abstract: number;
}

/** Recounts the catalogue's totals (papers and field lengths) from the whole table. */
export async function refreshTotals(tx: Queryable, names: SchemaNames): Promise<void> {
  await tx.query(
    `UPDATE ${names.state} SET total = s.total, title_len_sum = s.title, authors_len_sum = s.authors, abstract_len_sum = s.abstract
      FROM (SELECT count(*) AS total, coalesce(sum(title_len), 0) AS title, coalesce(sum(authors_len), 0) AS authors,
        coalesce(sum(abstract_len), 0) AS abstract FROM ${names.papers}) s`,
  );
}

/**
 * The totals as stored, the state row locked for the rest of the transaction: a writer outside
 * paperlist (whose statement's trigger forgets the totals) then waits for this one, so totals
 * moved by a difference from these stay exact. `null` when they are not known (such a writer
 * changed papers since they were last counted).
 */
export async function lockedTotals(tx: Queryable, names: SchemaNames): Promise<CatalogueTotals | null> {
  const [row] = await queryRows<{ total: number | null; title: number | null; authors: number | null; abstract: number | null }>(
    tx,
    `SELECT total::float8 AS total, title_len_sum::float8 AS title, authors_len_sum::float8 AS authors, abstract_len_sum::float8 AS abstract
      FROM ${names.state} FOR UPDATE`,
  );
  if (row === undefined || row.total === null || row.title === null || row.authors === null || row.abstract === null) return null;
  return { papers: Number(row.total), title: Number(row.title), authors: Number(row.authors), abstract: Number(row.abstract) };
}

/** The totals of the stored papers matching `condition` (SQL over the table's columns). */
export async function totalsWhere(tx: Queryable, names: SchemaNames, condition: string, params: unknown[]): Promise<CatalogueTotals> {
  const [row] = await queryRows<{ papers: number; title: number; authors: number; abstract: number }>(
    tx,
    `SELECT count(*)::float8 AS papers, coalesce(sum(title_len), 0)::float8 AS title, coalesce(sum(authors_len), 0)::float8 AS authors,
        coalesce(sum(abstract_len), 0)::float8 AS abstract
      FROM ${names.papers} WHERE ${condition}`,
    params,
  );
  return { papers: Number(row!.papers), title: Number(row!.title), authors: Number(row!.authors), abstract: Number(row!.abstract) };
}

/** Stores `before` moved by the change of the changed papers' totals (`removed` before the change, `added` after it). */
export async function writeMovedTotals(tx: Queryable, names: SchemaNames, before: CatalogueTotals, removed: CatalogueTotals, added: CatalogueTotals): Promise<void> {
  const moved = (key: keyof CatalogueTotals) => before[key] - removed[key] + added[key];
  await tx.query(`UPDATE ${names.state} SET total = $1, title_len_sum = $2, authors_len_sum = $3, abstract_len_sum = $4`, [
    moved('papers'),
    moved('title'),
    moved('authors'),
    moved('abstract'),
  ]);
}
