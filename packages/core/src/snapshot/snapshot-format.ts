/**
 * The snapshot file: an index's parts in one file.
 *
 *   magic (8 bytes) · header length (u32 LE) · header checksum (u32 LE) · header (UTF-8 JSON)
 *   · padding to 8 · each section's bytes, each starting at a multiple of 8
 *
 * The header names the file format, the index parts' own format and numbers, every section
 * (name, element type, byte offset and length, checksum) and the data's total length, so a
 * truncated, corrupted or foreign file is refused before anything is built from it.
 */

export const SNAPSHOT_MAGIC = Uint8Array.from([0x50, 0x4c, 0x53, 0x4e, 0x41, 0x50, 0x0d, 0x0a]); // "PLSNAP\r\n"
/** Version of the file layout (not of the index parts, which carry their own). */
export const SNAPSHOT_FILE_FORMAT = 1;
/** Bytes before the header: magic, header length, header checksum. */
export const PREAMBLE_BYTES = 16;

/** Element types a section may hold. */
export type SectionType = 'u8' | 'u16' | 'u32' | 'i32';

export interface SectionEntry {
  /** An index array's name, or `json:<i>` for the papers' JSON chunks. */
  name: string;
  type: SectionType;
  offset: number;
  bytes: number;
  checksum: number;
}

export interface SnapshotHeader {
  fileFormat: number;
  /** What wrote it, for error messages. */
  writer: string;
  index: {
    format: number;
    n: number;
    digest: string;
    averages: { title: number; abstract: number; authors: number };
    maxRank: { id: number; title: number; published: number; arxiv_id: number };
    groupShift: number;
  };
  /** Anything the caller stores beside the index (a catalogue version, the input's identity). */
  meta: Record<string, string>;
  sections: SectionEntry[];
  /** Length of the whole file. */
  fileBytes: number;
}

/**
 * A 32-bit checksum of bytes: two multiply-xor lanes over little-endian 32-bit words, folded.
 * Not cryptographic: it catches truncation, bit rot and partial writes.
 */
export function checksum(bytes: Uint8Array): number {
  const sum = new Checksum(bytes.byteLength);
  sum.update(bytes);
  return sum.digest();
}

/**
 * {@link checksum} fed in pieces, so that a large section can be summed between other work
 * (the event loop is never held for a whole gigabyte). Every piece but the last must be a
 * multiple of 8 bytes long; the result equals `checksum` of the whole.
 */
export class Checksum {
  private a: number;
  private b = 0x85ebca6b;
  private seen = 0;

  constructor(private readonly totalBytes: number) {
    this.a = 0x9e3779b9 ^ totalBytes;
  }

  update(bytes: Uint8Array): void {
    if ((this.seen & 7) !== 0) throw new Error('Checksum: only the last piece may be shorter than a multiple of 8 bytes');
    const words = bytes.byteLength >>> 2;
    let { a, b } = this;
    if ((bytes.byteOffset & 3) === 0) {
      const view = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
      let i = 0;
      for (; i + 1 < words; i += 2) {
        a = Math.imul(a ^ view[i]!, 0x01000193);
        b = Math.imul(b ^ view[i + 1]!, 0x5bd1e995);
      }
      if (i < words) a = Math.imul(a ^ view[i]!, 0x01000193);
    } else {
      const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < words; i++) {
        if ((i & 1) === 0) a = Math.imul(a ^ data.getUint32(4 * i, true), 0x01000193);
        else b = Math.imul(b ^ data.getUint32(4 * i, true), 0x5bd1e995);
      }
    }
    for (let i = words << 2; i < bytes.byteLength; i++) a = Math.imul(a ^ bytes[i]!, 0x01000193);
    this.a = a;
    this.b = b;
    this.seen += bytes.byteLength;
  }

  digest(): number {
    if (this.seen !== this.totalBytes) throw new Error(`Checksum: fed ${this.seen} of ${this.totalBytes} bytes`);
    let { a } = this;
    const { b } = this;
    a ^= b >>> 15;
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    return (a ^ (a >>> 13) ^ b) >>> 0;
  }
}

/** Bytes summed between two turns of the event loop (about 10 ms of work). */
const CHECKSUM_SLICE = 16 * 1024 * 1024;

/** {@link checksum}, yielding to the event loop between slices, so requests are answered meanwhile. */
export async function checksumYielding(bytes: Uint8Array): Promise<number> {
  const sum = new Checksum(bytes.byteLength);
  for (let at = 0; at < bytes.byteLength; at += CHECKSUM_SLICE) {
    sum.update(bytes.subarray(at, Math.min(bytes.byteLength, at + CHECKSUM_SLICE)));
    if (at + CHECKSUM_SLICE < bytes.byteLength) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return sum.digest();
}

/** Rounds up to a multiple of 8. */
export function align8(offset: number): number {
  return (offset + 7) & ~7;
}
