import type { PaperSource } from '../../source.js';
import { isWritableSource, type WritableSource } from '../../writes/paper-changes.js';
import type { PapersRequest } from '../types.js';

/** The write options of the handler (see `PapersHandlerOptions`). */
export interface WriteOptions {
  writeToken?: string;
  authorize?: (request: PapersRequest) => boolean | Promise<boolean>;
  maxWriteBytes?: number;
}

/** Default `maxWriteBytes`: 16 MiB, counted on the bytes received and again once decompressed. */
export const DEFAULT_MAX_WRITE_BYTES = 16 * 1024 * 1024;

/** How writes are authorized and bounded, once validated; `null` in the handler's options when writes are off. */
export interface WriteConfig {
  source: WritableSource;
  /** Either the token every write must carry, or the host's own check. */
  check: { kind: 'token'; token: string } | { kind: 'hook'; authorize: (request: PapersRequest) => boolean | Promise<boolean> };
  maxBytes: number;
}

/** What a bad write option throws: `[option name, message]`, turned into a `PaperlistOptionsError`. */
export type WriteOptionProblem = [code: string, message: string];

/** Validates the write options: `null` when writes are off, a problem when they are unusable. */
export function resolveWriteOptions(options: WriteOptions, source: PaperSource): WriteConfig | null | WriteOptionProblem {
  const { writeToken, authorize, maxWriteBytes } = options;
  if (maxWriteBytes !== undefined && (!Number.isSafeInteger(maxWriteBytes) || maxWriteBytes < 1)) {
    return ['maxWriteBytes', `paperlist: \`maxWriteBytes\` must be a positive integer, got ${String(maxWriteBytes)}.`];
  }
  if (writeToken === undefined && authorize === undefined) return null;
  if (writeToken !== undefined && authorize !== undefined) {
    return ['writeToken', 'paperlist: give `writeToken` or `authorize`, not both: writes are authorized one way.'];
  }
  if (writeToken !== undefined && (typeof writeToken !== 'string' || !/^[\x21-\x7e]+$/.test(writeToken))) {
    return ['writeToken', 'paperlist: `writeToken` must be a non-empty string of printable ASCII without spaces (it travels in `Authorization: Token <t>`).'];
  }
  if (authorize !== undefined && typeof authorize !== 'function') {
    return ['authorize', 'paperlist: `authorize` must be a function of the request returning true or false.'];
  }
  if (!isWritableSource(source)) {
    return ['source', `paperlist: \`${writeToken !== undefined ? 'writeToken' : 'authorize'}\` enables writes, but the source has no write() (it is not a WritableSource).`];
  }
  return {
    source,
    check: writeToken !== undefined ? { kind: 'token', token: writeToken } : { kind: 'hook', authorize: authorize! },
    maxBytes: maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES,
  };
}
