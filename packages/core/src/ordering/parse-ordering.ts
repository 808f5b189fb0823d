import type { OrderField, OrderKey, Ordering } from '../source.js';

/** The fields `ordering` accepts. */
export const ORDER_FIELDS: readonly OrderField[] = ['published', 'arxiv_id', 'title', 'id'];

/** The order of a list without `q` and without a valid `ordering`: title, then id. */
export const DEFAULT_ORDER: readonly OrderKey[] = [
  { field: 'title', descending: false },
  { field: 'id', descending: false },
];

/**
 * Reads an `ordering` parameter: comma-separated fields, each optionally prefixed with `-`.
 * Unknown fields and repeats of a field are dropped; `id` ascending is appended unless `id`
 * is already there. Returns `null` when nothing valid is left.
 *
 * @example parseOrderKeys('-published,bogus') // [{published, desc}, {id, asc}]
 */
export function parseOrderKeys(value: string): OrderKey[] | null {
  const keys: OrderKey[] = [];
  for (const part of value.split(',')) {
    const name = part.trim();
    const descending = name.startsWith('-');
    const field = (descending ? name.slice(1) : name) as OrderField;
    if (!ORDER_FIELDS.includes(field)) continue;
    if (keys.some((key) => key.field === field)) continue;
    keys.push({ field, descending });
  }
  if (keys.length === 0) return null;
  if (!keys.some((key) => key.field === 'id')) keys.push({ field: 'id', descending: false });
  return keys;
}

/**
 * The ordering of a list: the given `ordering` when it has a valid field; otherwise by
 * relevance when there is a search; otherwise the default order.
 */
export function resolveOrdering(orderingParam: string | undefined, hasSearch: boolean): Ordering {
  const keys = orderingParam === undefined ? null : parseOrderKeys(orderingParam);
  if (keys) return { kind: 'fields', keys };
  if (hasSearch) return { kind: 'relevance', then: [...DEFAULT_ORDER] };
  return { kind: 'fields', keys: [...DEFAULT_ORDER] };
}

/** The `ordering` parameter that reproduces these keys (for logs and links). */
export function formatOrderKeys(keys: readonly OrderKey[]): string {
  return keys.map((key) => (key.descending ? '-' : '') + key.field).join(',');
}
