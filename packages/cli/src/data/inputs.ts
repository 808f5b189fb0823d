import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SAMPLE_CATALOG_PATH } from '@paperlist/core/sample';
import { fileError } from '../cli-error.js';

/** A catalogue file to read: JSON (Lines or array, gzip or plain) or Parquet. */
export interface CatalogInput {
  /** Absolute path. */
  path: string;
  /** The name used in messages: the path as given on the command line. */
  name: string;
  /** Size in bytes, for progress. */
  size: number;
  kind: 'json' | 'parquet';
}

const PARQUET_MAGIC = 'PAR1';

/**
 * Checks that every file exists and is readable, and tells JSON from Parquet (by the `PAR1`
 * magic bytes, or the `.parquet` extension). Relative paths are resolved against `cwd`.
 * @throws {CliError} with exit code 3 for a missing or unreadable file.
 */
export async function resolveInputs(paths: readonly string[], cwd: string): Promise<CatalogInput[]> {
  const inputs: CatalogInput[] = [];
  for (const name of paths) inputs.push(await inspect(resolve(cwd, name), name));
  return inputs;
}

/** The embedded sample catalogue as an input. */
export async function sampleInput(): Promise<CatalogInput> {
  return inspect(SAMPLE_CATALOG_PATH, 'the embedded sample');
}

async function inspect(path: string, name: string): Promise<CatalogInput> {
  let handle;
  try {
    handle = await open(path, 'r');
    const stats = await handle.stat();
    if (stats.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    const magic = head.subarray(0, bytesRead).toString('latin1');
    const kind = magic === PARQUET_MAGIC || /\.parquet$/i.test(path) ? 'parquet' : 'json';
    return { path, name, size: stats.size, kind };
  } catch (error) {
    throw fileError(error, name) ?? error;
  } finally {
    await handle?.close();
  }
}
