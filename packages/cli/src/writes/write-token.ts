import { readFile } from 'node:fs/promises';
import { CliError, fileError } from '../cli-error.js';
import { EXIT } from '../exit-codes.js';

/** The options of `paperlist serve` that turn writes on. */
export interface WriteOptions {
  /** A file holding the write token (`--write-token-file`); else `PAPERLIST_WRITE_TOKEN` holds the token itself. */
  writeTokenFile?: string;
  stateDir?: string;
  databaseUrl?: string;
  /** Accept writes that live only in memory (`--ephemeral-writes`). */
  ephemeralWrites?: boolean;
}

/**
 * The token that HTTP writes must present, or `undefined` when writes are off. The token is read
 * from a file (a secret mounted by the deployment) or the environment, never from the command
 * line, where every user of the machine could read it in the process list.
 * @throws {CliError} for an unreadable or empty token, or writes that a restart would lose.
 */
export async function resolveWriteToken(options: WriteOptions, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  let token: string | undefined;
  let from: string;
  if (options.writeTokenFile !== undefined) {
    from = options.writeTokenFile;
    try {
      token = (await readFile(options.writeTokenFile, 'utf8')).trim();
    } catch (error) {
      throw fileError(error, options.writeTokenFile) ?? error;
    }
  } else {
    from = 'PAPERLIST_WRITE_TOKEN';
    token = env['PAPERLIST_WRITE_TOKEN']?.trim();
    if (token === undefined) return undefined;
  }
  if (token === '') throw new CliError(`the write token in ${from} is empty`, EXIT.USAGE);
  // PostgreSQL keeps what it committed: a write is acknowledged once its transaction is.
  if (options.databaseUrl === undefined && options.stateDir === undefined && options.ephemeralWrites !== true) {
    throw new CliError(
      'writes are on (a write token is set) but there is no --state-dir: every write would be lost at the next restart. ' +
        'Add --state-dir DIR to keep them, or --ephemeral-writes to accept losing them',
      EXIT.USAGE,
    );
  }
  return token;
}
