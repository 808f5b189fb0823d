import { ORDER_FIELDS } from '../ordering/parse-ordering.js';
import type { OrderField } from '../source.js';

/** One option of the ordering select: the `ordering` value it sends and its label. */
export interface OrderingChoice {
  value: string;
  label: string;
}

const FIELD_LABELS: Readonly<Record<OrderField, { name: string; ascending: string; descending: string }>> = {
  published: { name: 'Published', ascending: 'oldest first', descending: 'newest first' },
  arxiv_id: { name: 'arXiv id', ascending: 'ascending', descending: 'descending' },
  title: { name: 'Title', ascending: 'A to Z', descending: 'Z to A' },
  id: { name: 'Id', ascending: 'A to Z', descending: 'Z to A' },
};

/** Every field of {@link ORDER_FIELDS} ascending and descending: the 8 explicit orderings. */
export const ORDERING_CHOICES: readonly OrderingChoice[] = ORDER_FIELDS.flatMap((field) => {
  const { name, ascending, descending } = FIELD_LABELS[field];
  return [
    { value: field, label: `${name}, ${ascending}` },
    { value: `-${field}`, label: `${name}, ${descending}` },
  ];
});

/**
 * The default ordering (empty value, no `ordering` sent): relevance when searching, else the
 * default order, title A to Z.
 */
export function defaultOrderingChoice(searching: boolean): OrderingChoice {
  return { value: '', label: searching ? 'Relevance (default)' : 'Default (title, A to Z)' };
}
