import { uint32Array } from './alloc.js';
import { DENSE, LAST, type Postings } from './postings.js';
import { spend } from './work-budget.js';

/** Flag of an offset in a batch: the run belongs to the word counted whole. */
export const WHOLE_RUN = 0x80000000;
const OFFSET = 0x7fffffff;

/**
 * The runs (document, position offset) of many words, sorted by document. Reading the words
 * one by one jumps around the per-document arrays of a join once per pair (a cache miss
 * each: the documents of rare words are scattered); a batch is gathered by reading the
 * postings in order, then radix-sorted, so the join reads its arrays in order too.
 */
export class RunBatch {
  docs = uint32Array(1024);
  offsets = uint32Array(1024);
  size = 0;
  private spareDocs = uint32Array(1024);
  private spareOffsets = uint32Array(1024);
  private readonly counts = new Uint32Array(2048);

  /** Gathers the runs of `words` (in any order), flagging those of `whole`. */
  gather(postings: Postings, words: readonly number[], whole: number): void {
    let total = 0;
    for (const w of words) total += postings.df[w]!;
    this.reserve(total);
    const { positions } = postings;
    const docs = this.docs;
    const offsets = this.offsets;
    let k = 0;
    for (const w of words) {
      const df = postings.df[w]!;
      spend(df + postings.positionsAt[w + 1]! - postings.positionsAt[w]!);
      const flag = w === whole ? WHOLE_RUN : 0;
      let off = postings.positionsAt[w]!;
      if (postings.dense[w] === DENSE) {
        const bits = postings.bitsOf(w);
        for (let j = 0; j < bits.length; j++) {
          let x = bits[j]!;
          while (x !== 0) {
            const t = x & -x;
            x ^= t;
            docs[k] = (j << 5) + 31 - Math.clz32(t);
            offsets[k++] = off | flag;
            while ((positions[off++]! & LAST) === 0);
          }
        }
        continue;
      }
      const list = postings.docsOf(w);
      for (let j = 0; j < df; j++) {
        docs[k] = list[j]!;
        offsets[k++] = off | flag;
        while ((positions[off++]! & LAST) === 0);
      }
    }
    this.size = k;
    this.sort(postings.n);
  }

  /** The offset of run `i` in the positions. */
  static offset(value: number): number {
    return value & OFFSET;
  }

  /** Stable LSD radix sort by document, 11 bits a pass. */
  private sort(n: number): void {
    const size = this.size;
    spend(size * 4);
    const bits = Math.max(1, 32 - Math.clz32(Math.max(1, n - 1)));
    for (let shift = 0; shift < bits; shift += 11) {
      const counts = this.counts;
      counts.fill(0);
      const docs = this.docs;
      const offsets = this.offsets;
      for (let i = 0; i < size; i++) counts[(docs[i]! >>> shift) & 2047]!++;
      let sum = 0;
      for (let b = 0; b < 2048; b++) {
        const c = counts[b]!;
        counts[b] = sum;
        sum += c;
      }
      const outDocs = this.spareDocs;
      const outOffsets = this.spareOffsets;
      for (let i = 0; i < size; i++) {
        const b = (docs[i]! >>> shift) & 2047;
        const at = counts[b]!++;
        outDocs[at] = docs[i]!;
        outOffsets[at] = offsets[i]!;
      }
      this.spareDocs = docs;
      this.spareOffsets = offsets;
      this.docs = outDocs;
      this.offsets = outOffsets;
    }
  }

  private reserve(total: number): void {
    if (this.docs.length >= total) return;
    const size = Math.max(total, this.docs.length * 2);
    this.docs = uint32Array(size);
    this.offsets = uint32Array(size);
    this.spareDocs = uint32Array(size);
    this.spareOffsets = uint32Array(size);
  }
}
