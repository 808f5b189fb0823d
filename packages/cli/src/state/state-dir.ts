import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexedMemorySource } from '@paperlist/core/node';
import { CliError, errorCode } from '../cli-error.js';
import { EXIT } from '../exit-codes.js';
import type { DataFingerprint } from './data-fingerprint.js';
import { syncDirectory } from './sync-directory.js';

/** What `state.json` records: the snapshot in use and what it was built from. */
export interface StateManifest {
  /** Layout of this file. */
  format: 1;
  /** File name of the snapshot (in the state directory). */
  snapshot: string;
  data: DataFingerprint;
  papers: number;
  savedAt: string;
  /** The write journal's batches up to this sequence number are in the snapshot (absent: none). */
  journalApplied?: number;
}

const MANIFEST = 'state.json';
/** The write journal (see `WriteJournal`), kept whole: the catalogue is the --data files plus every write in it. */
const JOURNAL = 'journal.log';
const LOCK = 'serve.lock';
const SNAPSHOT_PREFIX = 'catalogue-';
const SNAPSHOT_SUFFIX = '.snapshot';

/**
 * The directory where `paperlist serve --state-dir` keeps its catalogue between starts: a
 * snapshot of the memory source and `state.json`, which names it and what it was built from.
 *
 * A new snapshot gets a new file name and is complete (written, flushed, renamed) before
 * `state.json` is switched to it (again written aside and renamed), so a crash at any moment
 * leaves the previous pair or the new one. One server at a time: `serve.lock` holds its pid.
 */
export class StateDir {
  private constructor(readonly path: string) {}

  /**
   * Creates the directory if needed and takes its lock; removes what an interrupted save left.
   * @throws {CliError} when it cannot be created or another running server holds it.
   */
  static async open(path: string): Promise<StateDir> {
    try {
      await mkdir(path, { recursive: true });
    } catch (error) {
      throw new CliError(`cannot use the state directory ${path}: ${(error as Error).message}`, EXIT.INPUT, { cause: error });
    }
    const dir = new StateDir(path);
    await dir.lock();
    for (const name of await readdir(path)) if (name.endsWith('.tmp')) await rm(join(path, name), { force: true });
    return dir;
  }

  /** The manifest, or `undefined` when there is none yet or it cannot be read (then the catalogue is rebuilt). */
  async manifest(): Promise<StateManifest | undefined> {
    try {
      const parsed = JSON.parse(await readFile(join(this.path, MANIFEST), 'utf8')) as Partial<StateManifest>;
      if (parsed.format !== 1 || typeof parsed.snapshot !== 'string' || parsed.data === undefined || typeof parsed.papers !== 'number') return undefined;
      return parsed as StateManifest;
    } catch {
      return undefined;
    }
  }

  /** The path of the write journal. */
  get journalPath(): string {
    return join(this.path, JOURNAL);
  }

  /** The path of a manifest's snapshot. */
  snapshotPath(manifest: StateManifest): string {
    return join(this.path, manifest.snapshot);
  }

  /**
   * Saves `source` as the new snapshot, switches the manifest to it, then removes older snapshots.
   * `journalApplied`: the journal's batches up to it are in `source` (read before the save starts).
   * Resolves with the new manifest.
   */
  async save(source: IndexedMemorySource, data: DataFingerprint, papers: number, journalApplied = 0): Promise<StateManifest> {
    const snapshot = `${SNAPSHOT_PREFIX}${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}${SNAPSHOT_SUFFIX}`;
    await source.save(join(this.path, snapshot));
    const manifest: StateManifest = { format: 1, snapshot, data, papers, savedAt: new Date().toISOString(), journalApplied };
    await writeAtomically(join(this.path, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const name of await readdir(this.path)) {
      if (name !== snapshot && name.startsWith(SNAPSHOT_PREFIX) && name.endsWith(SNAPSHOT_SUFFIX)) await rm(join(this.path, name), { force: true });
    }
    return manifest;
  }

  /** Releases the lock. */
  async close(): Promise<void> {
    await rm(join(this.path, LOCK), { force: true });
  }

  private async lock(): Promise<void> {
    const file = join(this.path, LOCK);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const handle = await open(file, 'wx');
        await handle.writeFile(`${process.pid}\n`);
        await handle.close();
        return;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw new CliError(`cannot use the state directory ${this.path}: ${(error as Error).message}`, EXIT.INPUT, { cause: error });
      }
      const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        throw new CliError(`the state directory ${this.path} is in use by another paperlist serve (pid ${holder})`, EXIT.SERVER);
      }
      // Left by a server that died without cleaning up: take it over.
      await rm(file, { force: true });
    }
    throw new CliError(`cannot lock the state directory ${this.path}`, EXIT.SERVER);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** Writes a small file whole or not at all: beside it, flushed, renamed, the directory flushed. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncDirectory(join(path, '..'));
}
