import type { IndexData } from './index-data.js';
import type { PaperStore } from './paper-store.js';
import { readJsonString } from './paper-store.js';
import { FieldTextBuilder, type FieldText } from './substring/field-text.js';
import { commonWordFields } from './substring/common-word-fields.js';
import { suffixOrder } from './suffix-order.js';
import { uint32Array } from './alloc.js';

/*
 * A write batch's delta index is waited for by the writer, and a fifth of its build was tables
 * that only substring filters and `*suffix` searches read: the vocabulary's suffix order, the
 * substring filters' character, run and code point tables of titles and abstracts, and the
 * commonest words' fields. A small index (see `DEFER_TABLES_UP_TO`) leaves them out and makes
 * them, with the same code from what the index holds anyway (its vocabulary, its stored JSON,
 * its postings), the first time a query reads them: on each thread that reads them, once. They
 * are the same tables as a full build's (the tests compare them), so every answer stays exact.
 */

/** The tables an index may build only when first read. */
export const DEFERRED_TABLES = ['suffixOrder', 'titleText', 'abstractText', 'commonWords'] as const;

/** The name of a table built when first read. */
export type DeferredTable = (typeof DEFERRED_TABLES)[number];

/** An index without its deferred tables. */
export type IndexWithoutDeferred = Omit<IndexData, DeferredTable>;

/**
 * Largest index, in papers, built without its deferred tables: past it, the tables cost a
 * query thread (which would build them while a request waits) too much. At 4,096 papers they
 * take a few milliseconds; a batch of 1,000 upserts is two indexes of 500.
 */
export const DEFER_TABLES_UP_TO = 4096;

/** Indexes whose deferred tables were not all built yet (they travel to other threads without them). */
const deferred = new WeakSet<object>();

/** Whether `index` has deferred tables (built or not): it then crosses threads without them (see `indexParts`). */
export function hasDeferredTables(index: IndexData): boolean {
  return deferred.has(index);
}

/** `rest` with the deferred tables made from it when first read (each once). */
export function withDeferredTables(rest: IndexWithoutDeferred): IndexData {
  let order: Uint32Array | undefined;
  let texts: { title: FieldText; abstract: FieldText } | undefined;
  let common: IndexData['commonWords'] | undefined;
  const fieldTexts = () => (texts ??= fieldTextsOf(rest.n, rest.store));
  const index = Object.defineProperties(
    { ...rest },
    {
      suffixOrder: { enumerable: true, get: () => (order ??= suffixOrder(rest.vocabulary)) },
      titleText: { enumerable: true, get: () => fieldTexts().title },
      abstractText: { enumerable: true, get: () => fieldTexts().abstract },
      commonWords: { enumerable: true, get: () => (common ??= commonWordFields(rest.n, rest.postings, rest.layout)) },
    },
  ) as IndexData;
  deferred.add(index);
  return index;
}

/**
 * The substring filters' tables of titles and abstracts, from the stored papers (documents in
 * index order): the text a build reads from the paper objects, read back from its JSON.
 */
export function fieldTextsOf(n: number, store: PaperStore): { title: FieldText; abstract: FieldText } {
  const title = new FieldTextBuilder();
  const abstract = new FieldTextBuilder();
  for (let d = 0; d < n; d++) {
    const json = store.json(d);
    const t = readJsonString(json, store.titleAt[d]!);
    const a = readJsonString(json, store.abstractAt[d]!);
    title.add(t, isAscii(t));
    abstract.add(a, isAscii(a));
  }
  const identity = uint32Array(n);
  for (let d = 0; d < n; d++) identity[d] = d;
  return { title: title.finish(identity), abstract: abstract.finish(identity) };
}

/** What `WordTable.tokenize` reports as `ascii`: no code unit of 128 or more. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return false;
  return true;
}
