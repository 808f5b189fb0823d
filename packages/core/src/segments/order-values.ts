import type { IndexData } from '../engine/builder.js';
import { arxivValueAt, readJsonString, stringEnd } from '../engine/paper-store.js';
import type { PaperStore } from '../engine/paper-store.js';
import { titleKey } from '../engine/title-key.js';
import { compareNullable } from '../ordering/compare-papers.js';
import type { OrderField, OrderKey } from '../source.js';

/** `,"published":` in UTF-8: inside a JSON string a quote is escaped, so these bytes only ever open the field. */
const PUBLISHED = new TextEncoder().encode(',"published":');
const NULL_BYTE = 0x6e; // 'n' of null

/**
 * The value paper `d` of a store is ordered by for one field (`orderValue` of the paper: the
 * title's sort key for `title`), read from its JSON without decoding the rest of it.
 */
export function storedOrderValue(store: PaperStore, d: number, field: OrderField): string | null {
  const json = store.json(d);
  switch (field) {
    case 'id':
      return readJsonString(json, 6);
    case 'arxiv_id': {
      const at = arxivValueAt(json);
      return json[at] === NULL_BYTE ? null : readJsonString(json, at);
    }
    case 'title':
      return titleKey(readJsonString(json, store.titleAt[d]!));
    case 'published': {
      const at = lastIndexOf(json, PUBLISHED) + PUBLISHED.length;
      return json[at] === NULL_BYTE ? null : readJsonString(json, at);
    }
  }
}

function lastIndexOf(json: Uint8Array, bytes: Uint8Array): number {
  outer: for (let i = json.length - bytes.length; i >= 0; i--) {
    for (let j = 0; j < bytes.length; j++) if (json[i + j] !== bytes[j]) continue outer;
    return i;
  }
  throw new Error('paperlist: a stored paper has no published field');
}

/** Above this many documents a segment's values are kept for one query only (the base: a million strings would stay). */
const KEPT_UP_TO = 1 << 17;

/**
 * The order values of a segment's documents, read on first use and kept: for the whole life of
 * a small segment (deltas are compared in every query that touches them), for one query in a
 * large one (call {@link OrderValues.forget} between queries).
 */
export class OrderValues {
  private readonly values = new Map<OrderField, Map<number, string | null>>();
  readonly kept: boolean;

  constructor(private readonly store: PaperStore) {
    this.kept = store.size <= KEPT_UP_TO;
  }

  value(d: number, field: OrderField): string | null {
    let byDoc = this.values.get(field);
    if (byDoc === undefined) this.values.set(field, (byDoc = new Map()));
    let value = byDoc.get(d);
    if (value === undefined) byDoc.set(d, (value = storedOrderValue(this.store, d, field)));
    return value;
  }

  /** Drops the values read (for a large segment, after each query). */
  forget(): void {
    if (!this.kept) this.values.clear();
  }
}

const cache = new WeakMap<IndexData, OrderValues>();

/** The order values of an index (one reader per index and thread). */
export function orderValuesOf(index: IndexData): OrderValues {
  let values = cache.get(index);
  if (values === undefined) cache.set(index, (values = new OrderValues(index.store)));
  return values;
}

/**
 * The keys an order really compares: each field once, cut after `id`, and `id` ascending
 * appended when missing (what `OrderBook.order` sorts by, and the scan source's tie-breaker).
 */
export function effectiveKeys(keys: readonly OrderKey[]): OrderKey[] {
  const effective: OrderKey[] = [];
  for (const key of keys) {
    if (effective.some((k) => k.field === key.field)) continue;
    effective.push(key);
    if (key.field === 'id') break;
  }
  if (effective.at(-1)?.field !== 'id') effective.push({ field: 'id', descending: false });
  return effective;
}

/** A document of one segment: its values are read through `values`. */
export interface SegmentDoc {
  values: OrderValues;
  d: number;
}

/**
 * How two documents of any segments compare under `keys` (negative: `a` first), by their
 * stored values: the order every segment's own order follows, so runs sorted per segment merge
 * into the order of one index of all of them.
 */
export function compareDocsBy(keys: readonly OrderKey[]): (a: SegmentDoc, b: SegmentDoc) => number {
  const effective = effectiveKeys(keys);
  return (a, b) => {
    for (const key of effective) {
      const c = compareNullable(a.values.value(a.d, key.field), b.values.value(b.d, key.field));
      if (c !== 0) return key.descending ? -c : c;
    }
    return 0;
  };
}
