/**
 * @paperlist/postgres: a PaperSource over PostgreSQL. The same SQL runs on a server through
 * `pg` and in-process on PGlite. See README.md for the schema, search semantics and every
 * difference from the in-memory source.
 */
export type { Queryable, PoolLike, PoolClientLike } from './db.js';
export { createPostgresSource, type PostgresSource, type PostgresSourceOptions, type CountStrategy } from './postgres-source.js';
export { migrate, schemaVersion, MIGRATIONS, SCHEMA_VERSION, type Migration, type MigrateOptions, type MigrateResult } from './migrations.js';
export {
  importPapers,
  PaperImportError,
  type ImportInput,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
} from './import.js';
export {
  createFollowingSource,
  type FollowingSource,
  type FollowingSourceOptions,
  type FollowEvent,
  type FollowState,
} from './following/following-source.js';
export { StatementTimeoutError } from './query-runner.js';
export { DEFAULT_SCHEMA } from './schema.js';
export { fieldText, termPattern } from './text-columns.js';
