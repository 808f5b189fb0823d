import type { CommandContext } from '../context.js';
import { connect, migrateSchema, redactUrl } from '../data/database.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

export interface MigrateOptions {
  databaseUrl: string;
  schema?: string;
}

/**
 * `paperlist migrate --database-url URL`: creates or updates paperlist's schema and imports
 * nothing. `import` migrates by itself; this is for a deploy step that must bring the schema up
 * to a new release's version before its servers start, without reloading the catalogue.
 */
export async function migrateDatabase(options: MigrateOptions, context: CommandContext): Promise<ExitCode> {
  const pool = await connect(options.databaseUrl, context.log, 1);
  try {
    const result = await migrateSchema(pool, context.log, options.schema);
    context.stdout.write(
      `paperlist: schema ${result.schema} of ${redactUrl(options.databaseUrl)} is at version ${result.version}\n`,
    );
    return EXIT.OK;
  } finally {
    await pool.end().catch(() => {});
  }
}
