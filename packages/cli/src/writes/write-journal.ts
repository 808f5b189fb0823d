import { createHash } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import type { Paper, PaperChange } from '@paperlist/core';
import { dirname } from 'node:path';
import { CliError, errorCode } from '../cli-error.js';
import { syncDirectory } from '../state/sync-directory.js';
import { EXIT } from '../exit-codes.js';

/** The file's first bytes: its layout. A file that starts otherwise is not read. */
const MAGIC = Buffer.from('paperlist-journal-1\n', 'utf8');
/** Length (4), checksum (4), sequence number (8). */
const HEADER = 16;
/** Default of the size past which the journal is compacted (see {@link WriteJournal.compact}). */
export const DEFAULT_COMPACT_AT_BYTES = 64 * 1024 * 1024;
/** A record longer than this is damage, not a batch (the HTTP limit is far below). */
const MAX_RECORD = 1 << 30;

/** One acknowledged write batch, as read back from the journal. */
export interface JournalRecord {
  seq: number;
  changes: PaperChange[];
}

/** What opening a journal found. */
export interface JournalContents {
  records: JournalRecord[];
  /** Bytes dropped from the end: a batch being written when the process died (never acknowledged). */
  tornBytes: number;
}

interface Pending {
  seq: number;
  changes: readonly PaperChange[];
  bytes: Buffer;
  resolve(seq: number): void;
  reject(error: unknown): void;
}

/**
 * The write-ahead journal of `paperlist serve --state-dir`: every write batch is appended as one
 * record and flushed to disk (`fdatasync`) before it is applied and acknowledged, so a batch that
 * was answered survives `kill -9` and power loss. Batches that arrive while a flush runs go to disk
 * together in the next one (group commit): one flush per group, not per batch.
 *
 * A record is `length · checksum · sequence · JSON of the changes`; a batch is one record, so it is
 * read back whole or not at all. At open, the first damaged or incomplete record ends the journal
 * (it was being written when the process died, so it was never acknowledged) and is cut off.
 */
export class WriteJournal {
  private pending: Pending[] = [];
  private flushing = false;
  /** Set when a failed append could not be undone: the file's end is unknown, so no more appends. */
  private broken: Error | undefined;
  /** For every id the journal has written: the paper it ends with, or `null` when deleted. */
  private readonly net = new Map<string, Paper | null>();
  /** The last batch on disk (and in {@link net}). */
  private durableSeq: number;
  /** The journal's size after the last compaction (or at open). */
  private compactedSize: number;

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private size: number,
    private lastSeq: number,
    records: readonly JournalRecord[],
    /** Compact when the journal grows past this and twice its size after the last compaction. */
    private readonly compactAtBytes: number,
  ) {
    for (const record of records) this.remember(record.changes);
    this.durableSeq = lastSeq;
    this.compactedSize = size;
  }

  /**
   * Every batch of the journal as its net effect: the paper each written id ends with, or `null`
   * for a deletion (a copy). Applying it over a catalogue equals applying the batches in order.
   */
  netChanges(): Map<string, Paper | null> {
    return new Map(this.net);
  }

  /** The last batch on disk: {@link netChanges} holds it and every one before. */
  get durableSequence(): number {
    return this.durableSeq;
  }

  /**
   * Opens (or creates) the journal at `path` and reads what it holds.
   * @throws {CliError} when the file is not a paperlist journal.
   */
  static async open(path: string, options: { compactAtBytes?: number } = {}): Promise<{ journal: WriteJournal; contents: JournalContents }> {
    const compactAtBytes = options.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES;
    // What a compaction interrupted by a crash left (the journal itself is whole).
    await rm(`${path}.compacting`, { force: true });
    const handle = await openOrCreate(path);
    try {
      const bytes = await handle.readFile();
      if (bytes.length === 0) {
        await handle.write(MAGIC, 0, MAGIC.length, 0);
        await handle.datasync();
        return { journal: new WriteJournal(path, handle, MAGIC.length, 0, [], compactAtBytes), contents: { records: [], tornBytes: 0 } };
      }
      if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
        // A journal cut short inside its first bytes holds nothing yet: start it again.
        if (MAGIC.subarray(0, bytes.length).equals(bytes)) {
          await handle.truncate(0);
          await handle.write(MAGIC, 0, MAGIC.length, 0);
          await handle.datasync();
          return { journal: new WriteJournal(path, handle, MAGIC.length, 0, [], compactAtBytes), contents: { records: [], tornBytes: bytes.length } };
        }
        throw new CliError(`${path} is not a paperlist write journal (or was written by an incompatible version)`, EXIT.INPUT);
      }
      const { records, end } = readRecords(bytes);
      const tornBytes = bytes.length - end;
      if (tornBytes > 0) {
        await handle.truncate(end);
        await handle.datasync();
      }
      const lastSeq = records.at(-1)?.seq ?? 0;
      return { journal: new WriteJournal(path, handle, end, lastSeq, records, compactAtBytes), contents: { records, tornBytes } };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The sequence number of the last batch appended. */
  get sequence(): number {
    return this.lastSeq;
  }

  /** Bytes in the journal. */
  get bytes(): number {
    return this.size;
  }

  /** Appends a batch; resolves with its sequence number once it is on disk. */
  append(changes: readonly PaperChange[]): Promise<number> {
    if (this.broken !== undefined) return Promise.reject(this.broken);
    const seq = ++this.lastSeq;
    const bytes = encodeRecord(seq, changes);
    return new Promise<number>((resolve, reject) => {
      this.pending.push({ seq, changes, bytes, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Waits for appends under way, then closes the file. */
  async close(): Promise<void> {
    while (this.flushing || this.pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.handle.close();
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const group = this.pending;
        this.pending = [];
        const bytes = Buffer.concat(group.map((entry) => entry.bytes));
        try {
          await this.handle.write(bytes, 0, bytes.length, this.size);
          await this.handle.datasync();
          this.size += bytes.length;
          for (const entry of group) this.remember(entry.changes);
          this.durableSeq = group.at(-1)!.seq;
          for (const entry of group) entry.resolve(entry.seq);
          if (this.size >= this.compactAtBytes && this.size >= 2 * this.compactedSize) await this.compact();
        } catch (error) {
          await this.undo(error);
          for (const entry of [...group, ...this.pending.splice(0)]) entry.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * Rewrites the journal as one record of its net effect (each written id once: its last paper, or
   * its deletion), numbered as the last batch, so it stops growing with rewrites of the same papers.
   * The new file is written beside, flushed and renamed over the old one (then the directory is
   * flushed): a crash leaves one or the other, whole. Runs between two groups of appends.
   */
  private async compact(): Promise<void> {
    const changes: PaperChange[] = [...this.net].map(([id, paper]) => (paper === null ? { op: 'delete', id } : { op: 'upsert', paper }));
    const record = encodeRecord(this.durableSeq, changes);
    // A record that long would be read back as damage: keep the journal as it is.
    if (record.length - HEADER > MAX_RECORD) return;
    const bytes = Buffer.concat([MAGIC, record]);
    const temporary = `${this.path}.compacting`;
    const next = await open(temporary, 'w+');
    try {
      await next.write(bytes, 0, bytes.length, 0);
      await next.datasync();
      await rename(temporary, this.path);
      await syncDirectory(dirname(this.path));
    } catch {
      await next.close();
      await rm(temporary, { force: true });
      // The old journal is still whole: go on appending to it.
      return;
    }
    await this.handle.close();
    this.handle = next;
    this.size = bytes.length;
    this.compactedSize = bytes.length;
  }

  private remember(changes: readonly PaperChange[]): void {
    for (const change of changes) {
      if (change.op === 'upsert') this.net.set(change.paper.id, change.paper);
      else this.net.set(change.id, null);
    }
  }

  /** After a failed append (disk full, I/O error): cuts what it may have written, or stops appending. */
  private async undo(error: unknown): Promise<void> {
    try {
      await this.handle.truncate(this.size);
      await this.handle.datasync();
    } catch {
      this.broken = new Error(`paperlist: the write journal ${this.path} could not be written (${(error as Error).message}); restart to write again`);
    }
    // The sequence numbers of the failed group are not reused: the next batch follows the last one on disk.
  }
}

/** Opens `path` for reading and writing at any position, creating it (and making its name durable) if needed. */
async function openOrCreate(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'r+');
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  const handle = await open(path, 'wx+');
  await syncDirectory(dirname(path));
  return handle;
}

function encodeRecord(seq: number, changes: readonly PaperChange[]): Buffer {
  const payload = Buffer.from(JSON.stringify(changes), 'utf8');
  const record = Buffer.allocUnsafe(HEADER + payload.length);
  record.writeUInt32LE(payload.length, 0);
  record.writeBigUInt64LE(BigInt(seq), 8);
  payload.copy(record, HEADER);
  record.writeUInt32LE(checksum(record.subarray(8)), 4);
  return record;
}

/** The complete, intact records from the start, and where they end. */
function readRecords(bytes: Buffer): { records: JournalRecord[]; end: number } {
  const records: JournalRecord[] = [];
  let at = MAGIC.length;
  let previous = 0;
  while (at + HEADER <= bytes.length) {
    const length = bytes.readUInt32LE(at);
    const end = at + HEADER + length;
    if (length > MAX_RECORD || end > bytes.length) break;
    if (bytes.readUInt32LE(at + 4) !== checksum(bytes.subarray(at + 8, end))) break;
    const seq = Number(bytes.readBigUInt64LE(at + 8));
    if (seq <= previous) break;
    let changes: PaperChange[];
    try {
      changes = JSON.parse(bytes.toString('utf8', at + HEADER, end)) as PaperChange[];
    } catch {
      break;
    }
    records.push({ seq, changes });
    previous = seq;
    at = end;
  }
  return { records, end: at };
}

function checksum(bytes: Uint8Array): number {
  return createHash('sha256').update(bytes).digest().readUInt32LE(0);
}
