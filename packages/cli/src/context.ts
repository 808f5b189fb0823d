import type { Logger } from './log.js';

/** What every command gets from the program. */
export interface CommandContext {
  log: Logger;
  /** Where relative paths are resolved (the directory `paperlist` was started from). */
  cwd: string;
  /** Results and the "serving" line go here. */
  stdout: NodeJS.WritableStream;
}
