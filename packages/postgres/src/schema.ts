import { PaperlistOptionsError } from '@paperlist/core';
import { quoteIdent } from './db.js';

/** The schema paperlist's tables live in when none is given. */
export const DEFAULT_SCHEMA = 'paperlist';

/** The schema-qualified names of paperlist's objects in one schema. */
export interface SchemaNames {
  schema: string;
  /** `"schema"` */
  quoted: string;
  papers: string;
  state: string;
  migrations: string;
  words: string;
  touch: string;
  /** Each word's posting list (see postings-migration.ts). */
  postings: string;
  /** What relevance, ordering and substring filters need of each paper, by ordinal, in chunks (see postings-migration.ts). */
  facts: string;
  /** Each paper's facet values, by ordinal, and the values (see facet-facts-migration.ts). */
  facetFacts: string;
}

/** `"schema"."name"`: an object of the schema, by its bare name. */
export function qualified(names: SchemaNames, name: string): string {
  return `${names.quoted}.${quoteIdent(name)}`;
}

/** Validates a schema name (a PostgreSQL identifier of at most 63 bytes) and names the tables in it. */
export function schemaNames(schema: string = DEFAULT_SCHEMA): SchemaNames {
  if (typeof schema !== 'string' || schema.length === 0 || Buffer.byteLength(schema) > 63 || schema.includes('\u0000')) {
    throw new PaperlistOptionsError(
      'invalid-schema',
      `paperlist: "schema" must be a PostgreSQL identifier of 1 to 63 bytes, got ${JSON.stringify(schema)}`,
    );
  }
  const quoted = quoteIdent(schema);
  return {
    schema,
    quoted,
    papers: `${quoted}.papers`,
    state: `${quoted}.paperlist_state`,
    migrations: `${quoted}.paperlist_migrations`,
    words: `${quoted}.paperlist_words`,
    touch: `${quoted}.paperlist_touch`,
    postings: `${quoted}.paperlist_postings`,
    facts: `${quoted}.paperlist_paper_facts`,
    facetFacts: `${quoted}.paperlist_facet_facts`,
  };
}

/** The 13 paper columns, in the order of the API. */
export const PAPER_COLUMNS = [
  'id',
  'arxiv_id',
  'nips_id',
  'url_abs',
  'url_pdf',
  'title',
  'abstract',
  'authors',
  'published',
  'conference',
  'conference_url_abs',
  'conference_url_pdf',
  'proceeding',
] as const;

/** Columns derived from a paper at import time (see MIGRATIONS). */
export const DERIVED_COLUMNS = [
  'title_key',
  'title_lower',
  'abstract_lower',
  'title_words',
  'authors_words',
  'abstract_words',
  'title_len',
  'authors_len',
  'abstract_len',
  'word_ids',
  'ord',
] as const;

/** Every column an import writes, in COPY order. */
export const ALL_COLUMNS = [...PAPER_COLUMNS, ...DERIVED_COLUMNS] as const;
