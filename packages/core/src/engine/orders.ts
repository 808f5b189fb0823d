import { formatOrderKeys } from '../ordering/parse-ordering.js';
import type { OrderField, OrderKey } from '../source.js';
import { inverse, sortByRank } from './ranks.js';
import { DescendingGroups } from './descending-groups.js';
import { float64Array, uint32Array } from './alloc.js';
import { spend } from './work-budget.js';

/** Per-field dense ranks and the permutations of the common orders, in index numbering. */
export interface OrderData {
  n: number;
  /** Dense rank of each document per field (nulls last); `title` is the index order's own. */
  ranks: Record<OrderField, Uint32Array>;
  /** Largest rank per field (the null rank when a field has nulls). */
  maxRank: Record<OrderField, number>;
  /** Documents by id ascending. */
  byId: Uint32Array;
  /** Documents by `published` ascending, ties by id (the descending order is read from it: `descending-groups.ts`). */
  publishedAsc: Uint32Array;
  arxivAsc: Uint32Array;
  arxivDesc: Uint32Array;
  titleDesc: Uint32Array;
}

type KeyKind = 'identity' | 'id' | 'field' | 'positions';

/**
 * One total order of the documents: how to list them (`slice`, `walk`) and a unique numeric
 * key per document whose ascending order is this order (to sort a few matches).
 * Documents are numbered in the default order (title, then id), which needs no arrays.
 */
export class DocOrder {
  private constructor(
    readonly n: number,
    /** Documents in this order; null for the index order itself. */
    private readonly permutation: Uint32Array | null,
    /** Walk `permutation` from its end. */
    private readonly reversed: boolean,
    /** A descending order read from the ascending one (then `permutation` is unused). */
    private readonly groups: DescendingGroups | null,
    private readonly keyKind: KeyKind,
    private readonly rank: Uint32Array | null,
    private readonly rankTop: number,
    private readonly descending: boolean,
    private readonly idRank: Uint32Array | null,
    private readonly byId: Uint32Array | null,
  ) {}

  static identity(n: number): DocOrder {
    return new DocOrder(n, null, false, null, 'identity', null, 0, false, null, null);
  }

  static byId(data: OrderData, descending: boolean): DocOrder {
    return new DocOrder(data.n, data.byId, descending, null, 'id', null, 0, descending, data.ranks.id, data.byId);
  }

  /** A field in one direction (ties by id), listed by its permutation. */
  static byField(data: OrderData, field: Exclude<OrderField, 'id'>, permutation: Uint32Array, descending: boolean): DocOrder {
    return new DocOrder(data.n, permutation, false, null, 'field', data.ranks[field], data.maxRank[field], descending, data.ranks.id, data.byId);
  }

  /** A field descending (ties by id ascending, nulls first), read group by group from its ascending permutation. */
  static byFieldDescending(data: OrderData, field: Exclude<OrderField, 'id'>, ascending: Uint32Array): DocOrder {
    const groups = new DescendingGroups(data.n, ascending, data.ranks[field], data.maxRank[field]);
    return new DocOrder(data.n, ascending, false, groups, 'field', data.ranks[field], data.maxRank[field], true, data.ranks.id, data.byId);
  }

  static byPositions(permutation: Uint32Array): DocOrder {
    return new DocOrder(permutation.length, permutation, false, null, 'positions', inverse(permutation), 0, false, null, null);
  }

  get isIdentity(): boolean {
    return this.permutation === null && this.groups === null;
  }

  /** The documents at positions `[from, to)` of this order. */
  slice(from: number, to: number): Uint32Array {
    to = Math.min(to, this.n);
    if (from >= to) return new Uint32Array(0);
    const out = uint32Array(to - from);
    if (this.groups !== null) {
      this.groups.fill(null, 0, out, from);
      return out;
    }
    const p = this.permutation;
    if (p === null) for (let i = from; i < to; i++) out[i - from] = i;
    else if (this.reversed) for (let i = from; i < to; i++) out[i - from] = p[this.n - 1 - i]!;
    else out.set(p.subarray(from, to));
    return out;
  }

  /** The documents of `bits` in this order from position `from`, skipping `skip` of them, at most `take`. */
  walk(bits: Uint32Array, skip: number, take: number, from = 0): Uint32Array {
    const out = uint32Array(take);
    if (this.groups !== null) {
      const k = this.groups.fill(bits, skip, out, from);
      return k === take ? out : out.subarray(0, k);
    }
    let k = 0;
    let seen = 0;
    const p = this.permutation;
    const n = this.n;
    if (p === null) {
      for (let d = from; d < n && k < take; d++) {
        if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0 && seen++ >= skip) out[k++] = d;
      }
    } else if (this.reversed) {
      for (let i = n - 1 - from; i >= 0 && k < take; i--) {
        const d = p[i]!;
        if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0 && seen++ >= skip) out[k++] = d;
      }
    } else {
      for (let i = from; i < n && k < take; i++) {
        const d = p[i]!;
        if ((bits[d >>> 5]! & (1 << (d & 31))) !== 0 && seen++ >= skip) out[k++] = d;
      }
    }
    return k === take ? out : out.subarray(0, k);
  }

  /** Unique keys of `docs`, ascending in this order. */
  keys(docs: Uint32Array): Float64Array {
    spend(docs.length);
    const keys = float64Array(docs.length);
    const n = this.n;
    switch (this.keyKind) {
      case 'identity':
        for (let i = 0; i < docs.length; i++) keys[i] = docs[i]!;
        break;
      case 'id': {
        const idRank = this.idRank!;
        if (this.descending) for (let i = 0; i < docs.length; i++) keys[i] = n - 1 - idRank[docs[i]!]!;
        else for (let i = 0; i < docs.length; i++) keys[i] = idRank[docs[i]!]!;
        break;
      }
      case 'field': {
        const rank = this.rank!;
        const idRank = this.idRank!;
        const top = this.rankTop;
        if (this.descending) for (let i = 0; i < docs.length; i++) keys[i] = (top - rank[docs[i]!]!) * n + idRank[docs[i]!]!;
        else for (let i = 0; i < docs.length; i++) keys[i] = rank[docs[i]!]! * n + idRank[docs[i]!]!;
        break;
      }
      case 'positions': {
        const position = this.rank!;
        for (let i = 0; i < docs.length; i++) keys[i] = position[docs[i]!]!;
        break;
      }
    }
    return keys;
  }

  /** The document of a key made by {@link keys}. */
  docOfKey(key: number): number {
    const n = this.n;
    switch (this.keyKind) {
      case 'identity':
        return key;
      case 'id':
        return this.byId![this.descending ? n - 1 - key : key]!;
      case 'field':
        return this.byId![key % n]!;
      case 'positions':
        return this.permutation![key]!;
    }
  }
}

/**
 * The orders of an index: the precomputed ones for every single field in both directions
 * (ties by id), and multi-field orders built on first use from the ranks (a few kept).
 */
export class OrderBook {
  private readonly fixed = new Map<string, DocOrder>();
  private readonly built = new Map<string, DocOrder>();
  static readonly BUILT_LIMIT = 8;

  constructor(readonly data: OrderData) {
    const n = data.n;
    const put = (keys: string, order: DocOrder) => this.fixed.set(keys, order);
    put('title,id', DocOrder.identity(n));
    put('-title,id', DocOrder.byField(data, 'title', data.titleDesc, true));
    put('published,id', DocOrder.byField(data, 'published', data.publishedAsc, false));
    put('-published,id', DocOrder.byFieldDescending(data, 'published', data.publishedAsc));
    put('arxiv_id,id', DocOrder.byField(data, 'arxiv_id', data.arxivAsc, false));
    put('-arxiv_id,id', DocOrder.byField(data, 'arxiv_id', data.arxivDesc, true));
    put('id', DocOrder.byId(data, false));
    put('-id', DocOrder.byId(data, true));
  }

  /** The order of these keys (keys after `id` cannot matter; `id` is appended when missing). */
  order(keys: readonly OrderKey[]): DocOrder {
    const effective: OrderKey[] = [];
    for (const key of keys) {
      if (effective.some((k) => k.field === key.field)) continue;
      effective.push(key);
      if (key.field === 'id') break;
    }
    if (effective.at(-1)?.field !== 'id') effective.push({ field: 'id', descending: false });
    const name = formatOrderKeys(effective);
    const fixed = this.fixed.get(name);
    if (fixed) return fixed;
    let order = this.built.get(name);
    if (order) {
      this.built.delete(name); // most recently used last
      this.built.set(name, order);
      return order;
    }
    order = DocOrder.byPositions(this.permutation(effective));
    this.built.set(name, order);
    if (this.built.size > OrderBook.BUILT_LIMIT) this.built.delete(this.built.keys().next().value!);
    return order;
  }

  /** Documents sorted by the keys: least significant key first, each a stable counting sort. */
  private permutation(keys: readonly OrderKey[]): Uint32Array {
    const { data } = this;
    spend(data.n * 3 * keys.length);
    const last = keys.at(-1)!; // id
    let order: Uint32Array = data.byId.slice();
    if (last.descending) order.reverse();
    for (let i = keys.length - 2; i >= 0; i--) {
      const key = keys[i]!;
      order = sortByRank(order, data.ranks[key.field], data.maxRank[key.field], key.descending);
    }
    return order;
  }
}
