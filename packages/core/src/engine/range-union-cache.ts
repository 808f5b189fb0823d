import type { IndexData } from './builder.js';
import type { DocSet } from './doc-set.js';

/**
 * The documents of a prefix's words, kept for the next query that asks for the same prefix.
 *
 * Why: every word of `q` matches as a prefix, so each term is the union of a range of words
 * (`the` is 978 words, `con` 2,730). Searches differ, their words do not: titles are made of a
 * few thousand common words, and building their unions took a third of the engine's time on
 * the load benchmark's distinct searches (a range of over 100 words about 0.4 ms each time).
 * The sets are a pure function of an index (which never changes) and a range, so a kept one is
 * exactly the one that would be built, and never mutated (see `DocSet`). Like Lucene's query
 * cache of clause results: least recently used first out, within a byte budget per thread (each
 * query thread keeps its own; nothing is shared or locked).
 */
export class RangeUnionCache {
  private readonly entries = new Map<string, { set: DocSet; bytes: number }>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private used = 0;

  /** @param budgetBytes The most the kept sets may take, their arrays counted. */
  constructor(private readonly budgetBytes: number) {}

  /** Bytes the kept sets take. */
  get bytes(): number {
    return this.used;
  }

  /** Sets kept. */
  get size(): number {
    return this.entries.size;
  }

  /** The union of words `[from, to)` of `index`: kept, or made by `build` and kept when it fits. */
  union(index: IndexData, from: number, to: number, build: () => DocSet): DocSet {
    const key = `${this.idOf(index)}:${from}:${to}`;
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      // Most recently used last: the map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.set;
    }
    const set = build();
    const bytes = setBytes(set);
    if (bytes > this.budgetBytes / 8) return set; // one set may not push out most of the others
    this.entries.set(key, { set, bytes });
    this.used += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.used -= entry.bytes;
    }
    return set;
  }

  /** A number per index (by its postings, which an index never swaps): keys stay short and never hold an index. */
  private idOf(index: IndexData): number {
    let id = this.ids.get(index.postings);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(index.postings, id);
    }
    return id;
  }
}

/** An entry's cost besides its arrays (the map entry, the key, the set object). */
const ENTRY_OVERHEAD = 128;

function setBytes(set: DocSet): number {
  switch (set.kind) {
    case 'all':
      return ENTRY_OVERHEAD;
    case 'list':
      return ENTRY_OVERHEAD + set.docs.byteLength;
    case 'bits':
      return ENTRY_OVERHEAD + set.bits.byteLength;
  }
}

/**
 * How much each thread keeps: 8 MiB, 128 unions as bitsets at 500k papers (64 at 1M). On the
 * load benchmark's distinct searches, 64 unions per thread answered about three quarters of the
 * union work from kept sets.
 */
export const RANGE_UNION_CACHE_BYTES = 8 * 1024 * 1024;

/** The cache of this thread's queries. */
export const rangeUnions = new RangeUnionCache(RANGE_UNION_CACHE_BYTES);
