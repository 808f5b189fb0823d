import { DocSetTable } from './doc-set-table.js';
import type { DocSet } from './doc-set.js';
import { unionOfTableSets } from './set-union.js';
import { SortedStrings } from './sorted-strings.js';

/**
 * A small value → documents table built at index time, for exact filters on a field with
 * few distinct values (`proceeding`, and the venue keys derived from it): the distinct values
 * sorted (a {@link SortedStrings}, so they can be shared and snapshotted) and each value's
 * documents. A filter is a binary search per value and the union of its sets.
 */
export class ValueSets {
  constructor(
    readonly values: SortedStrings,
    readonly sets: DocSetTable,
  ) {}

  /** The table of the documents' values (`null`: no value), in document order. */
  static build(n: number, valueOf: (d: number) => string | null): ValueSets {
    const distinct = new Set<string>();
    for (let d = 0; d < n; d++) {
      const value = valueOf(d);
      if (value !== null) distinct.add(value);
    }
    // The default sort is by UTF-16 code unit: the order the vocabulary searches in.
    const sorted = [...distinct].sort();
    const numberOf = new Map<string, number>();
    sorted.forEach((value, i) => numberOf.set(value, i));
    const numbers = new Int32Array(n);
    for (let d = 0; d < n; d++) {
      const value = valueOf(d);
      numbers[d] = value === null ? -1 : numberOf.get(value)!;
    }
    const sets = DocSetTable.build(n, sorted.length, (add) => {
      for (let d = 0; d < n; d++) if (numbers[d]! >= 0) add(d, numbers[d]!);
    });
    return new ValueSets(SortedStrings.fromSorted(sorted), sets);
  }

  /**
   * The table of the documents' several values each (a paper's task slugs, its method slugs),
   * in document order; repeats within one document are ignored.
   */
  static buildMulti(n: number, valuesOf: (d: number) => readonly string[]): ValueSets {
    const distinct = new Set<string>();
    for (let d = 0; d < n; d++) for (const value of valuesOf(d)) distinct.add(value);
    const sorted = [...distinct].sort();
    const numberOf = new Map<string, number>();
    sorted.forEach((value, i) => numberOf.set(value, i));
    const numbers: Int32Array[] = new Array(n);
    for (let d = 0; d < n; d++) numbers[d] = Int32Array.from(new Set(valuesOf(d)), (value) => numberOf.get(value)!);
    const sets = DocSetTable.build(n, sorted.length, (add) => {
      for (let d = 0; d < n; d++) for (const set of numbers[d]!) add(d, set);
    });
    return new ValueSets(SortedStrings.fromSorted(sorted), sets);
  }

  /** The documents whose value is one of `values`. */
  match(values: readonly string[]): DocSet {
    const ids: number[] = [];
    for (const value of values) {
      const i = this.values.find(value);
      if (i >= 0) ids.push(i);
    }
    return unionOfTableSets(this.sets, ids, this.sets.n);
  }
}
