import type { Migration } from './migration.js';

/**
 * Schema step 7: facet facts, so that the direct SQL source counts `facets=` over a large match
 * set (a broad search, or the whole catalogue) from memory instead of a `GROUP BY` that reads
 * every matching row.
 *
 * - `paperlist_facet_facts`: per facet field (`year`, `venue`, `proceeding`, `author`, `task`,
 *   `method`), its distinct values sorted by code points (rows of negative `chunk`), and each
 *   paper's values as ranks among them, by ordinal (see facet-facts-builder.ts).
 * - `paperlist_state.facets_version`: the catalogue version the facts were built for. Like the
 *   posting lists, they are built by whole-catalogue imports; any later change of `papers` moves
 *   the version, and facets are then counted in SQL again until the next whole import.
 *
 * An upgraded database has no facet facts until its next whole import.
 */
export const FACET_FACTS_MIGRATION: Migration = {
  version: 7,
  name: 'facet facts for facet counts',
  up: (n) => [
    `CREATE TABLE ${n.facetFacts} (
      facet text NOT NULL,
      chunk int4 NOT NULL,
      data bytea NOT NULL,
      PRIMARY KEY (facet, chunk)
    )`,
    `ALTER TABLE ${n.facetFacts} ALTER COLUMN data SET STORAGE EXTERNAL`,
    `ALTER TABLE ${n.state} ADD COLUMN facets_version bigint`,
  ],
};
