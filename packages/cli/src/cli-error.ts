import { PaperlistOptionsError } from '@paperlist/core';
import { PaperLoadError } from '@paperlist/core/node';
import { EXIT, type ExitCode } from './exit-codes.js';

/** An error the CLI reports as one line and exits with `exitCode`. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** `code` of Node system errors. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EMFILE: 'too many open files',
};

/** An error of reading `file` (missing, unreadable) as a {@link CliError}, or `undefined` if it is not one. */
export function fileError(error: unknown, file: string): CliError | undefined {
  const code = errorCode(error);
  const what = code === undefined ? undefined : FILE_ERRORS[code];
  if (what === undefined) return undefined;
  return new CliError(`cannot read ${file}: ${what}`, EXIT.INPUT, { cause: error });
}

/** The exit code and one-line message for any error that ends a command. */
export function describeError(error: unknown): { exitCode: ExitCode; message: string } {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (error instanceof PaperLoadError) return { exitCode: EXIT.INVALID_DATA, message: error.message };
  if (error instanceof PaperlistOptionsError) return { exitCode: EXIT.USAGE, message: error.message.replace(/^paperlist: /, '') };
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.INTERNAL, message: oneLine(message) || 'unknown error' };
}

/** The first line of `text`. */
export function oneLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}
