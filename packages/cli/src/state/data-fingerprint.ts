import { stat } from 'node:fs/promises';
import type { CatalogInput } from '../data/inputs.js';

/**
 * What a catalogue was built from: each file's path, size and modification time, and the
 * reading options that change what is read. Two equal fingerprints mean a rebuild would read
 * the same bytes the same way (as `make` judges it: a file rewritten with the same size and
 * modification time is not noticed).
 */
export interface DataFingerprint {
  files: { path: string; size: number; mtimeMs: number }[];
  format: string;
  skipInvalid: boolean;
}

/** The fingerprint of `inputs` read with these options, from the files as they are now. */
export async function dataFingerprint(inputs: readonly CatalogInput[], options: { format: string; skipInvalid?: boolean }): Promise<DataFingerprint> {
  const files = [];
  for (const input of inputs) {
    const { size, mtimeMs } = await stat(input.path);
    files.push({ path: input.path, size, mtimeMs });
  }
  return { files, format: options.format, skipInvalid: options.skipInvalid === true };
}

/** Whether two fingerprints name the same data read the same way. */
export function sameData(a: DataFingerprint, b: DataFingerprint): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Why `saved` differs from `now`, in a few words for the log. */
export function dataChange(saved: DataFingerprint, now: DataFingerprint): string {
  if (saved.format !== now.format || saved.skipInvalid !== now.skipInvalid) return 'the reading options changed';
  const before = new Map(saved.files.map((f) => [f.path, f]));
  if (saved.files.length !== now.files.length || now.files.some((f) => !before.has(f.path))) return 'the --data files are not the same';
  const changed = now.files.find((f) => {
    const old = before.get(f.path)!;
    return old.size !== f.size || old.mtimeMs !== f.mtimeMs;
  });
  return changed === undefined ? 'the --data files are in another order' : `${changed.path} changed`;
}
