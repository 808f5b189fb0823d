import type { Paper } from '../paper.js';
import { formatOrderKeys } from '../ordering/parse-ordering.js';
import { compareNullable, orderValue } from '../ordering/compare-papers.js';
import type { OrderKey, OrderPosition } from '../source.js';

/** Layout of the cursors written today; another is refused as invalid. */
const CURSOR_VERSION = 1;

/**
 * The opaque `cursor` of a walk: the ordering and the position of the last paper sent, as
 * base64url JSON. Stable across reloads and writes (it holds values, not row numbers), so a walk
 * goes on where it stopped; it never expires.
 */
export function encodeCursor(keys: readonly OrderKey[], position: OrderPosition): string {
  const json = JSON.stringify([CURSOR_VERSION, formatOrderKeys(keys), position.values]);
  return toBase64Url(new TextEncoder().encode(json));
}

/** The position of a cursor made by {@link encodeCursor} for these keys, or `null` when it is not one. */
export function decodeCursor(cursor: string, keys: readonly OrderKey[]): OrderPosition | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(cursor)));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return null;
  const [version, ordering, values] = parsed as unknown[];
  if (version !== CURSOR_VERSION || ordering !== formatOrderKeys(keys)) return null;
  if (!Array.isArray(values) || values.length !== keys.length) return null;
  // Only values a stored paper can have: text without U+0000 or lone surrogates, null where a field may be null.
  const storable = (value: unknown, key: OrderKey) =>
    typeof value === 'string' ? !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value) : value === null && key.field !== 'id' && key.field !== 'title';
  if (!values.every((value, i) => storable(value, keys[i]!))) return null;
  return { values: values as (string | null)[] };
}

/** The position of `paper` under `keys`. */
export function positionOf(paper: Paper, keys: readonly OrderKey[]): OrderPosition {
  return { values: keys.map((key) => orderValue(paper, key.field)) };
}

/** How `paper` compares with a position under `keys`: positive when it comes after it. */
export function compareToPosition(paper: Paper, keys: readonly OrderKey[], position: OrderPosition): number {
  for (let k = 0; k < keys.length; k++) {
    const c = compareNullable(orderValue(paper, keys[k]!.field), position.values[k]!);
    if (c !== 0) return keys[k]!.descending ? -c : c;
  }
  return 0;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
