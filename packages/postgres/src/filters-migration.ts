import type { Migration } from './migration.js';
import { venueKeyFunction, VENUE_KEY_FUNCTION } from './filters-sql.js';

/**
 * Schema step 3: what the extension filters need beyond the earlier steps' indexes (dates use
 * `papers_published`, authors the GIN index on `word_ids`): the venue key function, and
 * indexes on `proceeding` and on the venue key.
 */
export const FILTERS_MIGRATION: Migration = {
  version: 3,
  name: 'proceeding and venue indexes',
  up: (n) => [
    venueKeyFunction(n),
    `CREATE INDEX papers_proceeding ON ${n.papers} (proceeding, id)`,
    `CREATE INDEX papers_venue ON ${n.papers} ((${n.quoted}.${VENUE_KEY_FUNCTION}(proceeding)), id)`,
  ],
};
