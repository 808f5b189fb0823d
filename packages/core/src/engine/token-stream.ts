import { uint16Array, uint32Array, uint8Array } from './alloc.js';
import { Growable } from './growable.js';
const CHUNK_BYTES = 16 * 1024 * 1024;

/** A sealed stream as plain data (its chunks are shared memory), read where the postings are laid out. */
export interface TokenStreamParts {
  readonly chunks: Uint8Array[];
  readonly chunkOf: Uint16Array;
  readonly starts: Uint32Array;
}

/**
 * Build-time store of each paper's word numbers, varint-encoded (frequent words appear early
 * and get small numbers, so most take one byte), until the index is laid out. A paper is
 * written in one piece and read back by its number in any order.
 */
export class TokenStream {
  private readonly chunks: Uint8Array[] = [];
  private chunk = uint8Array(1 << 16);
  private used = 0;
  private readonly chunkOf = new Growable(uint16Array);
  private readonly starts = new Growable(uint32Array);
  private scratch = uint8Array(1 << 16);

  /** The sealed stream as plain data. */
  parts(): TokenStreamParts {
    return { chunks: this.chunks.slice(), chunkOf: this.chunkOf.array.subarray(0, this.chunkOf.length), starts: this.starts.array.subarray(0, this.starts.length) };
  }

  /** Bytes held. */
  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + c.byteLength, 0) + this.used;
  }

  /**
   * Appends a paper: `fieldLengths` (title, abstract, then each author name) and the word
   * numbers of all its fields, in order.
   */
  write(fieldLengths: ArrayLike<number>, fieldCount: number, words: Uint32Array, wordCount: number): void {
    this.writeWithFlags(fieldLengths, fieldCount, words, null, wordCount);
  }

  /** {@link write} of `(words[i] << 2) | flags[i]` (each word with its separator flags), `words` left as it is. */
  writeWithFlags(fieldLengths: ArrayLike<number>, fieldCount: number, words: Uint32Array, flags: Uint8Array | null, wordCount: number): void {
    const worst = 5 * (fieldCount + wordCount + 1);
    if (this.scratch.length < worst) this.scratch = uint8Array(worst * 2);
    const out = this.scratch;
    let at = writeVarint(out, 0, fieldCount);
    for (let f = 0; f < fieldCount; f++) at = writeVarint(out, at, fieldLengths[f]!);
    if (flags === null) for (let i = 0; i < wordCount; i++) at = writeVarint(out, at, words[i]!);
    else for (let i = 0; i < wordCount; i++) at = writeVarint(out, at, (words[i]! << 2) | flags[i]!);
    if (this.used + at > this.chunk.length) {
      this.chunks.push(this.chunk.subarray(0, this.used));
      this.chunk = uint8Array(Math.max(Math.min(CHUNK_BYTES, this.chunk.length * 2), at));
      this.used = 0;
    }
    this.chunk.set(out.subarray(0, at), this.used);
    this.chunkOf.push(this.chunks.length);
    this.starts.push(this.used);
    this.used += at;
  }

  /** Finishes writing. */
  seal(): void {
    this.chunks.push(this.chunk.subarray(0, this.used));
    this.chunk = new Uint8Array(0);
    this.used = 0;
  }

  /** The chunk holding paper `i`. */
  bytesOf(i: number): Uint8Array {
    return this.chunks[this.chunkOf.get(i)]!;
  }

  /** Where paper `i` starts in its chunk. */
  startOf(i: number): number {
    return this.starts.get(i);
  }
}

function writeVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  out[at++] = value;
  return at;
}
