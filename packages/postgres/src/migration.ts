import type { SchemaNames } from './schema.js';

/** One step of the schema: applied once, in order, recorded in `paperlist_migrations`. */
export interface Migration {
  version: number;
  name: string;
  /** The statements of the step, one statement each. */
  up(names: SchemaNames): string[];
}
