import { queryRows, quoteLiteral, withTransaction, type Queryable } from './db.js';
import { schemaNames, type SchemaNames } from './schema.js';
import { FILTERS_MIGRATION } from './filters-migration.js';
import { ANNOTATIONS_MIGRATION } from './annotations-sql.js';
import { CHANGE_LOG_MIGRATION } from './change-log.js';
import { POSTINGS_MIGRATION } from './postings-migration.js';
import { FACET_FACTS_MIGRATION } from './facet-facts-migration.js';
import { RETIRED_ORDINALS_MIGRATION } from './delta/retired-ordinals-migration.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/**
 * The schema's history. Never edit a released step: add a new one.
 *
 * `papers` holds the 13 fields as they were imported (`published` as `YYYY-MM-DD` text, so any
 * date the loaders accept round-trips, and `authors` as `text[]`), plus what import derives
 * from them in JavaScript with the core's own functions, so that search and ordering are the
 * memory source's whatever the database's locale:
 * - `title_key`: `titleSortKey(title)`, compared `COLLATE "C"` (code point order): the
 *   catalogue's title collation;
 * - `title_lower`, `abstract_lower`: JavaScript's `toLowerCase()` of the field, stored only when
 *   the field has non-ASCII characters (elsewhere `lower(field COLLATE "C")` is the same), for
 *   the case-insensitive `title`/`abstract` filters;
 * - `title_words`, `authors_words`, `abstract_words`: the folded words (`textWords`) of each
 *   field, each word between two spaces, author names joined by `|`: phrases are substrings,
 *   and occurrences are counted in them for relevance;
 * - `title_len`, `authors_len`, `abstract_len`: word counts (BM25's field lengths);
 * - `word_ids`: the ids of the paper's distinct words in `paperlist_words`, with a GIN index:
 *   the candidates of a search.
 * Rows stay whole and uncompressed up to 8 KB (`toast_tuple_target`): searching and scoring
 * read the word texts of every candidate, and decompressing them would cost more than the
 * extra pages.
 * `paperlist_state` holds the catalogue's version (ETags) and totals; a statement trigger
 * moves the version on every change of `papers`.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'papers, words, state and indexes',
    up: (n) => [
      `CREATE TABLE ${n.papers} (
        id text COLLATE "C" PRIMARY KEY,
        arxiv_id text COLLATE "C",
        nips_id text,
        url_abs text NOT NULL,
        url_pdf text NOT NULL,
        title text NOT NULL,
        abstract text NOT NULL,
        authors text[] NOT NULL,
        published text COLLATE "C" CHECK (published ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
        conference text,
        conference_url_abs text,
        conference_url_pdf text,
        proceeding text,
        title_key text COLLATE "C" NOT NULL,
        title_lower text,
        abstract_lower text,
        title_words text COLLATE "C" NOT NULL,
        authors_words text COLLATE "C" NOT NULL,
        abstract_words text COLLATE "C" NOT NULL,
        title_len int4 NOT NULL,
        authors_len int4 NOT NULL,
        abstract_len int4 NOT NULL,
        word_ids int4[] NOT NULL
      ) WITH (toast_tuple_target = 8160)`,
      `CREATE INDEX papers_words ON ${n.papers} USING gin (word_ids)`,
      `CREATE INDEX papers_title ON ${n.papers} (title_key, id)`,
      `CREATE INDEX papers_title_desc ON ${n.papers} (title_key DESC, id)`,
      `CREATE INDEX papers_published ON ${n.papers} (published, id)`,
      `CREATE INDEX papers_published_desc ON ${n.papers} (published DESC, id)`,
      `CREATE INDEX papers_arxiv_id ON ${n.papers} (arxiv_id, id)`,
      `CREATE INDEX papers_arxiv_id_desc ON ${n.papers} (arxiv_id DESC, id)`,
      `CREATE TABLE ${n.words} (
        id int4 PRIMARY KEY,
        word text COLLATE "C" NOT NULL UNIQUE
      )`,
      `CREATE TABLE ${n.state} (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        catalogue text NOT NULL,
        version bigint NOT NULL DEFAULT 0,
        total bigint,
        title_len_sum bigint,
        authors_len_sum bigint,
        abstract_len_sum bigint,
        changed_at timestamptz NOT NULL DEFAULT now()
      )`,
      `INSERT INTO ${n.state} (catalogue, total, title_len_sum, authors_len_sum, abstract_len_sum)
        VALUES (substr(md5(random()::text || clock_timestamp()::text), 1, 12), 0, 0, 0, 0)`,
      // Every statement that changes papers moves the version (ETags) and forgets the totals.
      `CREATE FUNCTION ${n.touch}() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN
          UPDATE ${n.state} SET version = version + 1, total = NULL, title_len_sum = NULL,
            authors_len_sum = NULL, abstract_len_sum = NULL, changed_at = now();
          RETURN NULL;
        END
      $fn$`,
      `CREATE TRIGGER papers_touch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${n.papers}
        FOR EACH STATEMENT EXECUTE FUNCTION ${n.touch}()`,
    ],
  },
  {
    version: 2,
    name: 'trigram index for the title filter',
    up: (n) => [
      // `title=`/`abstract=` compare `coalesce(<field>_lower, lower(<field> COLLATE "C"))` with
      // `LIKE '%needle%'` (see list-sql.ts); a GIN trigram index on exactly that expression finds
      // the candidates, and PostgreSQL rechecks each one with the LIKE itself, so answers stay
      // exact. pg_trgm is installed where it can be (a trusted extension since PostgreSQL 13;
      // PGlite needs it loaded); where it cannot, the indexes are skipped and the filters read
      // the table as before: slower, never different. The opclass is named by the schema the
      // extension lives in, which need not be on the search_path. `fastupdate = off`: searches never
      // scan a pending list (a bulk load turns it on for the load's merges: see keptThroughLoad). The
      // abstracts get no such index by default: at 498k papers it made an import 5x longer
      // (273 s against 50 s); docs/postgres.md shows the one statement that adds it.
      `DO $do$
      DECLARE
        trgm text;
      BEGIN
        PERFORM pg_advisory_xact_lock(74110, 0);
        IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
          BEGIN
            CREATE EXTENSION pg_trgm;
          EXCEPTION WHEN others THEN
            RAISE NOTICE 'paperlist: pg_trgm is not available (%); title and abstract filters read the table', SQLERRM;
          END;
        END IF;
        SELECT quote_ident(ns.nspname) INTO trgm FROM pg_extension e JOIN pg_namespace ns ON ns.oid = e.extnamespace
          WHERE e.extname = 'pg_trgm';
        IF trgm IS NOT NULL THEN
          EXECUTE format('CREATE INDEX papers_title_trgm ON %s USING gin ((coalesce(title_lower, lower(title COLLATE "C"))) %s.gin_trgm_ops) WITH (fastupdate = off)', ${quoteLiteral(n.papers)}, trgm);
        END IF;
      END
      $do$`,
    ],
  },
  FILTERS_MIGRATION,
  ANNOTATIONS_MIGRATION,
  CHANGE_LOG_MIGRATION,
  POSTINGS_MIGRATION,
  FACET_FACTS_MIGRATION,
  RETIRED_ORDINALS_MIGRATION,
];

/** The schema version this package reads and writes. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** The schema to create or update; default `paperlist`. */
  schema?: string;
}

/** What {@link migrate} did. */
export interface MigrateResult {
  schema: string;
  /** Versions applied by this call, in order (empty when the schema was up to date). */
  applied: number[];
  /** The schema's version now. */
  version: number;
}

/**
 * Creates or updates paperlist's schema: applies, in one transaction, every migration not
 * yet recorded in `<schema>.paperlist_migrations`. Idempotent; concurrent calls (several
 * servers starting at once) are serialised by an advisory lock. Run it on the primary.
 *
 * @example
 * await migrate(pool, { schema: 'paperlist' }); // { applied: [1], version: 1 } the first time, then { applied: [] }
 */
export async function migrate(db: Queryable, options: MigrateOptions = {}): Promise<MigrateResult> {
  const names = schemaNames(options.schema);
  return withTransaction(db, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(74110, hashtext($1))', [names.schema]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${names.quoted}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${names.migrations} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const done = new Set(
      (await queryRows<{ version: number }>(tx, `SELECT version FROM ${names.migrations}`)).map((row) => Number(row.version)),
    );
    const newest = Math.max(0, ...done);
    if (newest > SCHEMA_VERSION) throw newerSchemaError(names.schema, newest);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.up(names)) await tx.query(statement);
      await tx.query(`INSERT INTO ${names.migrations} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return { schema: names.schema, applied, version: SCHEMA_VERSION };
  });
}

/** The version of paperlist's schema in `schema`, or `null` when it has never been migrated. */
export async function schemaVersion(db: Queryable, options: MigrateOptions = {}): Promise<number | null> {
  const names = schemaNames(options.schema);
  const [exists] = await queryRows<{ found: boolean }>(db, 'SELECT to_regclass($1) IS NOT NULL AS found', [names.migrations]);
  if (!exists?.found) return null;
  const [row] = await queryRows<{ version: number | null }>(db, `SELECT max(version) AS version FROM ${names.migrations}`);
  return row?.version == null ? null : Number(row.version);
}

/** Throws a clear error unless `schema` is at exactly the version this package knows. */
export async function assertMigrated(db: Queryable, schema: string): Promise<void> {
  const version = await schemaVersion(db, { schema });
  if (version === null) {
    throw new Error(`paperlist: schema ${JSON.stringify(schema)} has no paperlist tables; run migrate(db, { schema }) first`);
  }
  if (version > SCHEMA_VERSION) throw newerSchemaError(schema, version);
  if (version < SCHEMA_VERSION) {
    throw new Error(
      `paperlist: schema ${JSON.stringify(schema)} is at version ${version}, this @paperlist/postgres needs ${SCHEMA_VERSION}; run migrate(db, { schema })`,
    );
  }
}

function newerSchemaError(schema: string, version: number): Error {
  return new Error(
    `paperlist: schema ${JSON.stringify(schema)} is at version ${version}, newer than this @paperlist/postgres knows (${SCHEMA_VERSION}); upgrade the package`,
  );
}
