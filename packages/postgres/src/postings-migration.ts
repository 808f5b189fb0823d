import type { Migration } from './migration.js';

/**
 * Schema step 6: posting lists, so that the direct SQL source counts and ranks a search
 * without reading a heap page per matching paper (GIN has no index-only scans, and a bitmap
 * count reads every matching row).
 *
 * - `papers.ord`: a small integer per paper, unique, given by the importer (1..n for a whole
 *   catalogue, after the largest stored one for later papers). Posting lists name papers by it.
 * - `paperlist_postings`: one row per dictionary word: how many papers hold it (`df`) and, in
 *   `data`, those papers' ordinals (ascending) with the word's occurrences in each one's title,
 *   abstract and authors (see posting-codec.ts). Stored uncompressed (`STORAGE EXTERNAL`): the
 *   lists are packed already, and reading them should cost no decompression.
 * - `paperlist_paper_facts`: by ordinal, 65,536 papers a row, each paper's field lengths (BM25's),
 *   whether its title or abstract needs its stored text for a substring filter, and its place in
 *   each ordering field (see postings-builder.ts), so that a page of a search is chosen without
 *   reading papers.
 * - `paperlist_state.postings_version`: the catalogue version the lists were built for. The
 *   importer builds them with every whole catalogue and sets it. Later writes leave the lists
 *   as they are; schema step 8 (delta/retired-ordinals-migration.ts) logs what they take away,
 *   so the source keeps answering from the lists plus the papers written since.
 *
 * An upgraded database has empty lists (`postings_version` NULL) until its next whole import.
 */
export const POSTINGS_MIGRATION: Migration = {
  version: 6,
  name: 'posting lists for counts and relevance',
  up: (n) => [
    `ALTER TABLE ${n.papers} ADD COLUMN ord int4`,
    `CREATE UNIQUE INDEX papers_ord ON ${n.papers} (ord)`,
    `CREATE TABLE ${n.postings} (
      word_id int4 PRIMARY KEY,
      df int4 NOT NULL,
      data bytea NOT NULL
    )`,
    `ALTER TABLE ${n.postings} ALTER COLUMN data SET STORAGE EXTERNAL`,
    `CREATE TABLE ${n.facts} (
      chunk int4 PRIMARY KEY,
      data bytea NOT NULL
    )`,
    `ALTER TABLE ${n.facts} ALTER COLUMN data SET STORAGE EXTERNAL`,
    `ALTER TABLE ${n.state} ADD COLUMN postings_version bigint`,
  ],
};
