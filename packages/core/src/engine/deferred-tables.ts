import type { IndexData } from './index-data.js';
import type { PaperStore } from './paper-store.js';
import { readJsonString } from './paper-store.js';
import { ABSTRACT_GAPS, FieldTextBuilder, TITLE_GAPS, type FieldText } from './substring/field-text.js';
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

/** The tables an index may leave to be made when first read. */
export type DeferredTablesOf = Pick<IndexData, DeferredTable>;

/**
 * Every index is one of these, whether its deferred tables are built or made when first read, so
 * that every index has the same hidden class in V8. Indexes once made their deferred tables with
 * accessors defined on each object (`Object.defineProperties` with getters of its own): V8 gives
 * every such object a map of its own, so each write's delta index was a new map to every engine
 * function that reads an index, on every query thread. Each deoptimized ("wrong map") and was
 * compiled again, or went megamorphic for every index, the base's too: under one-paper writes
 * five times a second at 498k papers, a query cost about twice its CPU (see docs/performance.md).
 * The fields are assigned in one order here, for the same reason.
 */
class EngineIndex implements IndexData {
  readonly n: number;
  readonly digest: string;
  readonly vocabulary: IndexData['vocabulary'];
  readonly postings: IndexData['postings'];
  readonly successors: IndexData['successors'];
  readonly shortPrefixes: IndexData['shortPrefixes'];
  readonly layout: IndexData['layout'];
  readonly store: IndexData['store'];
  readonly orders: IndexData['orders'];
  readonly publishedDays: Uint32Array;
  readonly authorNames: IndexData['authorNames'];
  readonly proceedings: IndexData['proceedings'];
  readonly venues: IndexData['venues'];
  readonly tasks: IndexData['tasks'];
  readonly methods: IndexData['methods'];
  readonly annotations: IndexData['annotations'];
  private order: Uint32Array | undefined;
  private texts: { title: FieldText; abstract: FieldText } | undefined;
  private common: IndexData['commonWords'] | undefined;

  constructor(rest: IndexWithoutDeferred, tables: DeferredTablesOf | null) {
    this.n = rest.n;
    this.digest = rest.digest;
    this.vocabulary = rest.vocabulary;
    this.postings = rest.postings;
    this.successors = rest.successors;
    this.shortPrefixes = rest.shortPrefixes;
    this.layout = rest.layout;
    this.store = rest.store;
    this.orders = rest.orders;
    this.publishedDays = rest.publishedDays;
    this.authorNames = rest.authorNames;
    this.proceedings = rest.proceedings;
    this.venues = rest.venues;
    this.tasks = rest.tasks;
    this.methods = rest.methods;
    this.annotations = rest.annotations;
    this.order = tables?.suffixOrder;
    this.texts = tables === null ? undefined : { title: tables.titleText, abstract: tables.abstractText };
    this.common = tables?.commonWords;
  }

  get suffixOrder(): Uint32Array {
    return (this.order ??= suffixOrder(this.vocabulary));
  }

  get titleText(): FieldText {
    return (this.texts ??= fieldTextsOf(this.n, this.store)).title;
  }

  get abstractText(): FieldText {
    return (this.texts ??= fieldTextsOf(this.n, this.store)).abstract;
  }

  get commonWords(): IndexData['commonWords'] {
    return (this.common ??= commonWordFields(this.n, this.postings, this.layout));
  }
}

/** Indexes whose deferred tables were not all built yet (they travel to other threads without them). */
const deferred = new WeakSet<object>();

/** Whether `index` has deferred tables (built or not): it then crosses threads without them (see `indexParts`). */
export function hasDeferredTables(index: IndexData): boolean {
  return deferred.has(index);
}

/** `rest` with the deferred tables made from it when first read (each once). */
export function withDeferredTables(rest: IndexWithoutDeferred): IndexData {
  const index = new EngineIndex(rest, null);
  deferred.add(index);
  return index;
}

/** `rest` with its deferred tables built. */
export function withTables(rest: IndexWithoutDeferred, tables: DeferredTablesOf): IndexData {
  return new EngineIndex(rest, tables);
}

/**
 * The substring filters' tables of titles and abstracts, from the stored papers (documents in
 * index order): the text a build reads from the paper objects, read back from its JSON.
 */
export function fieldTextsOf(n: number, store: PaperStore): { title: FieldText; abstract: FieldText } {
  const title = new FieldTextBuilder(TITLE_GAPS);
  const abstract = new FieldTextBuilder(ABSTRACT_GAPS);
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
