import { sqlState } from './db.js';

/**
 * A paper the database refused (a stored id without `upsert`, or a constraint), with its
 * position in the input.
 */
export class PaperImportError extends Error {
  override readonly name = 'PaperImportError';
  constructor(
    message: string,
    /** 1-based position of the paper in the input, when known. */
    readonly record: number | undefined,
    /** The paper's id, when known. */
    readonly id: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Adds `offset` to the line of a `COPY table, line N` error context (batches count from 1 each). */
export function shiftCopyLine(error: unknown, offset: number): unknown {
  const line = copyLineOf(error);
  if (line === undefined || offset === 0) return error;
  const where = (error as { where: string }).where;
  (error as { where: string }).where = where.replace(/(COPY [^,]+, line )(\d+)/, (_m, head: string) => `${head}${line + offset}`);
  return error;
}

/** A database error about a row, with the input position of the paper it names (COPY line, or duplicate key). */
export function locateFailure(error: unknown, written: readonly string[]): unknown {
  if (sqlState(error) === undefined) return error;
  const line = copyLineOf(error);
  const duplicate = duplicateIdOf(error);
  // Papers are written in input order, one row each: row n is record n.
  const index = line !== undefined ? line - 1 : duplicate !== undefined ? written.indexOf(duplicate) : -1;
  if (index < 0 || index >= written.length) return duplicate === undefined ? error : dbRefusal(error, undefined, duplicate);
  return dbRefusal(error, index + 1, written[index]);
}

function dbRefusal(error: unknown, record: number | undefined, id: string | undefined): PaperImportError {
  const message = (error as Error).message;
  const where = record === undefined ? '' : `record ${record}${id === undefined ? '' : ` (id ${JSON.stringify(id)})`}: `;
  const hint = sqlState(error) === '23505' ? '; import with { upsert: true } to update stored papers' : '';
  return new PaperImportError(`paperlist: ${where}${message}${hint}`, record, id ?? duplicateIdOf(error), { cause: error });
}

function copyLineOf(error: unknown): number | undefined {
  const where = (error as { where?: unknown }).where;
  const match = typeof where === 'string' ? /COPY [^,]+, line (\d+)/.exec(where) : null;
  return match ? Number(match[1]) : undefined;
}

function duplicateIdOf(error: unknown): string | undefined {
  const detail = (error as { detail?: unknown }).detail;
  const match = typeof detail === 'string' ? /^Key \(id\)=\((.*)\) already exists\.$/s.exec(detail) : null;
  return match ? match[1] : undefined;
}

/** An aborted import fails with the abort's reason, whatever the database said. */
export function explainFailure(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  return error;
}
