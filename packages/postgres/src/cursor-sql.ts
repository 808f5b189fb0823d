import type { OrderKey, OrderPosition } from '@paperlist/core';
import type { AddParam } from './filters-sql.js';

/** The column each ordering field is sorted by (all `COLLATE "C"`: code point order, as the core). */
export const ORDER_COLUMNS: Record<OrderKey['field'], string> = {
  title: 'title_key',
  published: 'published',
  arxiv_id: 'arxiv_id',
  id: 'id',
};

/** Fields that are never null. */
const NOT_NULL = new Set<OrderKey['field']>(['title', 'id']);

/**
 * The condition "strictly after `position` in the order of `keys`" (a cursor walk's page), with
 * PostgreSQL's null placement (nulls last ascending, first descending), as the core's. For
 * keys k1…kn: the first key after its value, or equal to it and the second after its own, and
 * so on. (The handler refuses cursors holding text PostgreSQL cannot store.)
 */
export function seekCondition(keys: readonly OrderKey[], position: OrderPosition, add: AddParam): string {
  const alternatives: string[] = [];
  const equal: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const { field, descending } = keys[i]!;
    const column = ORDER_COLUMNS[field];
    const value = position.values[i] ?? null;
    alternatives.push([...equal, after(column, value, descending, NOT_NULL.has(field), add)].join(' AND '));
    if (i + 1 < keys.length) equal.push(value === null ? `${column} IS NULL` : `${column} = ${add(value)}`);
  }
  const condition = alternatives.length === 1 ? alternatives[0]! : `(${alternatives.map((part) => `(${part})`).join(' OR ')})`;
  // The same rows, with a bound on the first key that an ordering index can start its scan at
  // (else the scan would read every row before the position): where one exists.
  const first = keys[0]!;
  const bound = leadingBound(ORDER_COLUMNS[first.field], position.values[0] ?? null, first.descending, NOT_NULL.has(first.field), add);
  return bound === null ? condition : `${bound} AND ${condition}`;
}

/**
 * A condition on the first key alone that every row after the position meets and that an index
 * can seek to: descending, everything after a value is at most that value (nulls come first);
 * ascending, at least the value when the column has no nulls (they would come after), and after a
 * null only nulls. `null` where no such single range exists (ascending past a value of a nullable
 * column; descending past a null).
 */
function leadingBound(column: string, value: string | null, descending: boolean, notNull: boolean, add: AddParam): string | null {
  if (descending) return value === null ? null : `${column} <= ${add(value)}`;
  if (value === null) return `${column} IS NULL`;
  return notNull ? `${column} >= ${add(value)}` : null;
}

/** `column` comes after `value` in its direction (nulls last ascending, first descending). */
function after(column: string, value: string | null, descending: boolean, notNull: boolean, add: AddParam): string {
  if (!descending) {
    if (value === null) return 'FALSE';
    return notNull ? `${column} > ${add(value)}` : `(${column} > ${add(value)} OR ${column} IS NULL)`;
  }
  if (value === null) return `${column} IS NOT NULL`;
  return `${column} < ${add(value)}`;
}
