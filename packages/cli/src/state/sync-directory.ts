import { open, type FileHandle } from 'node:fs/promises';

/** Flushes a directory, so that names created or renamed in it survive a power loss. */
export async function syncDirectory(path: string): Promise<void> {
  let directory: FileHandle | undefined;
  try {
    directory = await open(path, 'r');
    await directory.sync();
  } catch {
    // Some platforms cannot open a directory; the rename is as durable as they make it.
  } finally {
    await directory?.close();
  }
}
