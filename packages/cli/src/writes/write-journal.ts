import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import type { PaperChange } from '@paperlist/core';
import { dirname } from 'node:path';
import { CliError, errorCode } from '../cli-error.js';
import { syncDirectory } from '../state/sync-directory.js';
import { EXIT } from '../exit-codes.js';

/** The file's first bytes: its layout. A file that starts otherwise is not read. */
const MAGIC = Buffer.from('paperlist-journal-1\n', 'utf8');
/** Length (4), checksum (4), sequence number (8). */
const HEADER = 16;
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

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private size: number,
    private lastSeq: number,
  ) {}

  /**
   * Opens (or creates) the journal at `path` and reads what it holds.
   * @throws {CliError} when the file is not a paperlist journal.
   */
  static async open(path: string): Promise<{ journal: WriteJournal; contents: JournalContents }> {
    const handle = await openOrCreate(path);
    try {
      const bytes = await handle.readFile();
      if (bytes.length === 0) {
        await handle.write(MAGIC, 0, MAGIC.length, 0);
        await handle.datasync();
        return { journal: new WriteJournal(path, handle, MAGIC.length, 0), contents: { records: [], tornBytes: 0 } };
      }
      if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
        // A journal cut short inside its first bytes holds nothing yet: start it again.
        if (MAGIC.subarray(0, bytes.length).equals(bytes)) {
          await handle.truncate(0);
          await handle.write(MAGIC, 0, MAGIC.length, 0);
          await handle.datasync();
          return { journal: new WriteJournal(path, handle, MAGIC.length, 0), contents: { records: [], tornBytes: bytes.length } };
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
      return { journal: new WriteJournal(path, handle, end, lastSeq), contents: { records, tornBytes } };
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
      this.pending.push({ seq, bytes, resolve, reject });
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
          for (const entry of group) entry.resolve(entry.seq);
        } catch (error) {
          await this.undo(error);
          for (const entry of [...group, ...this.pending.splice(0)]) entry.reject(error);
        }
      }
    } finally {
      this.flushing = false;
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
