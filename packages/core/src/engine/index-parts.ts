import type { FieldLengths } from '../search/relevance.js';
import type { OrderField } from '../source.js';
import type { IndexData } from './builder.js';
import { DocSetTable } from './doc-set-table.js';
import { FieldLayout } from './field-layout.js';
import { FieldText } from './substring/field-text.js';
import { CommonWordFields } from './substring/common-word-fields.js';
import { OrderBook } from './orders.js';
import { PaperStore } from './paper-store.js';
import { Postings } from './postings.js';
import { Successors } from './successors.js';
import { Vocabulary } from './vocabulary.js';
import { SortedStrings } from './sorted-strings.js';
import { AuthorNames } from './author-names.js';
import { ValueSets } from './value-sets.js';
import { AnnotationStore } from './annotation-store.js';
import { hasDeferredTables, withDeferredTables, withTables, type IndexWithoutDeferred } from './deferred-tables.js';

/** A typed array of the index. */
export type IndexArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

/**
 * An index as plain data: a few numbers and named typed arrays, every large one in shared
 * memory. This is what crosses to worker threads (the arrays are shared, not copied) and
 * what a snapshot writes; {@link indexFromParts} makes the working objects again, cheaply.
 */
export interface IndexParts {
  /** Layout version of these parts; a reader refuses others. */
  readonly format: number;
  readonly n: number;
  readonly digest: string;
  readonly averages: FieldLengths;
  readonly maxRank: Readonly<Record<OrderField, number>>;
  /** Low bits of a document kept in a grouped list (`Postings.groupShift`). */
  readonly groupShift: number;
  /**
   * Every array, except, when {@link deferred}, those of the tables built when first read (see
   * `deferred-tables.ts`). Parts written to a snapshot are never deferred.
   */
  readonly arrays: Readonly<Partial<Record<IndexArrayName, IndexArray>>>;
  /** The index builds its deferred tables when first read, on each thread (its parts lack their arrays). */
  readonly deferred?: boolean;
  /** The papers' JSON, in chunks. */
  readonly json: readonly Uint8Array[];
}

/** The layout version written by this code (14: the fields' sets of common letter pairs; 13: the tables' grouped 16-bit lists, gap sets with marks, the abstracts' dear ones; 12: titles' gap sets; 11: edge sets with a space; 10: the substring filters' edge sets; 9: grouped 16-bit lists). */
export const INDEX_FORMAT = 14;

const TABLE_ARRAYS = ['df', 'docsAt', 'dense', 'listDocs', 'bitsets', 'listLows'] as const;
const tableNames = <P extends string>(prefix: P) => TABLE_ARRAYS.map((a) => `${prefix}.${a}` as const);
const fieldTextNames = <P extends string>(prefix: P) =>
  [
    ...tableNames(`${prefix}.chars`),
    `${prefix}.runChars`,
    `${prefix}.runStarts`,
    ...tableNames(`${prefix}.runDocs`),
    `${prefix}.unicode`,
    ...tableNames(`${prefix}.unicodeDocs`),
    `${prefix}.nonAscii`,
    ...tableNames(`${prefix}.edges`),
    ...tableNames(`${prefix}.gaps`),
    `${prefix}.gapKept`,
    ...tableNames(`${prefix}.pairs`),
    `${prefix}.pairKept`,
  ] as const;

/** Every array of the index, by name (see the classes that use them). */
export const INDEX_ARRAY_NAMES = [
  ...tableNames('shortPrefixes'),
  ...fieldTextNames('titleText'),
  ...fieldTextNames('abstractText'),
  'commonWords',
  ...tableNames('commonWordsTitle'),
  ...tableNames('commonWordsAbstract'),
  'suffixOrder',
  'vocabularyChars',
  'vocabularyStarts',
  'df',
  'docsAt',
  'dense',
  'listDocs',
  'listLows',
  'bitsets',
  'rankDirectory',
  'positionsAt',
  'positions',
  'skipAt',
  'skip',
  'successorFrequent',
  'successorAnchors',
  'successorCodesAt',
  'successorCodes',
  'titleLength',
  'abstractLength',
  'authorsLength',
  'oversize',
  'oversizeLengths',
  'chunkOf',
  'start',
  'length',
  'titleAt',
  'abstractAt',
  'idTable',
  'rankId',
  'rankTitle',
  'rankPublished',
  'rankArxiv',
  'byId',
  'publishedAsc',
  'arxivAsc',
  'arxivDesc',
  'titleDesc',
  'publishedDays',
  'authorWordNamesAt',
  'authorWordNames',
  ...tableNames('authorNameDocs'),
  ...tableNames('authorShortPrefixes'),
  'authorNames.bytes',
  'authorNames.starts',
  ...tableNames('proceedings'),
  'proceedingValues.bytes',
  'proceedingValues.starts',
  ...tableNames('venues'),
  'venueValues.bytes',
  'venueValues.starts',
  ...tableNames('tasks'),
  'taskValues.bytes',
  'taskValues.starts',
  ...tableNames('methods'),
  'methodValues.bytes',
  'methodValues.starts',
  'annotationJson',
  'annotationAt',
] as const;

export type IndexArrayName = (typeof INDEX_ARRAY_NAMES)[number];

function tableArrays(prefix: string, table: DocSetTable): Record<string, IndexArray> {
  return {
    [`${prefix}.df`]: table.df,
    [`${prefix}.docsAt`]: table.docsAt,
    [`${prefix}.dense`]: table.dense,
    [`${prefix}.listDocs`]: table.listDocs,
    [`${prefix}.bitsets`]: table.bitsets,
    [`${prefix}.listLows`]: table.listLows,
  };
}

function fieldTextArrays(prefix: string, text: FieldText): Record<string, IndexArray> {
  return {
    ...tableArrays(`${prefix}.chars`, text.chars),
    [`${prefix}.runChars`]: text.runs.chars,
    [`${prefix}.runStarts`]: text.runs.starts,
    ...tableArrays(`${prefix}.runDocs`, text.runDocs),
    [`${prefix}.unicode`]: text.unicode,
    ...tableArrays(`${prefix}.unicodeDocs`, text.unicodeDocs),
    [`${prefix}.nonAscii`]: text.nonAscii,
    ...tableArrays(`${prefix}.edges`, text.edges),
    ...tableArrays(`${prefix}.gaps`, text.gaps),
    [`${prefix}.gapKept`]: text.gapKept,
    ...tableArrays(`${prefix}.pairs`, text.pairs),
    [`${prefix}.pairKept`]: text.pairKept,
  };
}

/** The arrays of the tables an index may build when first read (see `deferred-tables.ts`). */
function deferredArrays(index: IndexData) {
  return {
    ...(fieldTextArrays('titleText', index.titleText) as Record<ReturnType<typeof fieldTextNames<'titleText'>>[number], IndexArray>),
    ...(fieldTextArrays('abstractText', index.abstractText) as Record<ReturnType<typeof fieldTextNames<'abstractText'>>[number], IndexArray>),
    commonWords: index.commonWords.words,
    ...(tableArrays('commonWordsTitle', index.commonWords.title) as Record<`commonWordsTitle.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
    ...(tableArrays('commonWordsAbstract', index.commonWords.abstract) as Record<`commonWordsAbstract.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
    suffixOrder: index.suffixOrder,
  };
}

/**
 * The parts of a built index. `deferred` ('keep'): an index that builds some tables when first
 * read (a write's delta) crosses to other threads without them, each thread building its own
 * when it needs them; by default (a snapshot's parts) every table is built and included.
 */
export function indexParts(index: IndexData, deferred: 'keep' | 'build' = 'build'): IndexParts {
  const { vocabulary: v, postings: p, layout: l, store: s, orders } = index;
  const o = orders.data;
  const keep = deferred === 'keep' && hasDeferredTables(index);
  return {
    format: INDEX_FORMAT,
    n: index.n,
    digest: index.digest,
    averages: { ...l.averages },
    maxRank: { ...o.maxRank },
    groupShift: p.groupShift,
    json: s.chunks,
    ...(keep ? { deferred: true } : {}),
    arrays: {
      ...(tableArrays('shortPrefixes', index.shortPrefixes) as Record<`shortPrefixes.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
      ...(keep ? {} : deferredArrays(index)),
      vocabularyChars: v.chars,
      vocabularyStarts: v.starts,
      df: p.df,
      docsAt: p.docsAt,
      dense: p.dense,
      listDocs: p.listDocs,
      listLows: p.listLows,
      bitsets: p.bitsets,
      rankDirectory: p.rankDirectory,
      positionsAt: p.positionsAt,
      positions: p.positions,
      skipAt: p.skipAt,
      skip: p.skip,
      successorFrequent: index.successors.frequent,
      successorAnchors: index.successors.anchors,
      successorCodesAt: index.successors.codesAt,
      successorCodes: index.successors.codes,
      titleLength: l.titleLength,
      abstractLength: l.abstractLength,
      authorsLength: l.authorsLength,
      oversize: l.oversize,
      oversizeLengths: l.oversizeLengths,
      chunkOf: s.chunkOf,
      start: s.start,
      length: s.length,
      titleAt: s.titleAt,
      abstractAt: s.abstractAt,
      idTable: s.idTable,
      rankId: o.ranks.id,
      rankTitle: o.ranks.title,
      rankPublished: o.ranks.published,
      rankArxiv: o.ranks.arxiv_id,
      byId: o.byId,
      publishedAsc: o.publishedAsc,
      arxivAsc: o.arxivAsc,
      arxivDesc: o.arxivDesc,
      titleDesc: o.titleDesc,
      publishedDays: index.publishedDays,
      authorWordNamesAt: index.authorNames.wordNamesAt,
      authorWordNames: index.authorNames.wordNames,
      ...(tableArrays('authorNameDocs', index.authorNames.docs) as Record<`authorNameDocs.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
      ...(tableArrays('authorShortPrefixes', index.authorNames.shortPrefixes) as Record<`authorShortPrefixes.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
      'authorNames.bytes': index.authorNames.names.bytes,
      'authorNames.starts': index.authorNames.names.starts,
      ...(tableArrays('proceedings', index.proceedings.sets) as Record<`proceedings.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
      'proceedingValues.bytes': index.proceedings.values.bytes,
      'proceedingValues.starts': index.proceedings.values.starts,
      ...(tableArrays('venues', index.venues.sets) as Record<`venues.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
      'venueValues.bytes': index.venues.values.bytes,
      'venueValues.starts': index.venues.values.starts,
      ...(tableArrays('tasks', index.tasks.sets) as Record<`tasks.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
      'taskValues.bytes': index.tasks.values.bytes,
      'taskValues.starts': index.tasks.values.starts,
      ...(tableArrays('methods', index.methods.sets) as Record<`methods.${(typeof TABLE_ARRAYS)[number]}`, IndexArray>),
      'methodValues.bytes': index.methods.values.bytes,
      'methodValues.starts': index.methods.values.starts,
      annotationJson: index.annotations.json,
      annotationAt: index.annotations.at,
    },
  };
}

/**
 * The working index over parts (no copies). Throws when the parts are of another layout
 * version or miss an array.
 */
export function indexFromParts(parts: IndexParts): IndexData {
  if (parts.format !== INDEX_FORMAT) throw new Error(`paperlist: index parts of format ${parts.format}, this code reads ${INDEX_FORMAT}`);
  const a = parts.arrays as Record<IndexArrayName, IndexArray | undefined>;
  const get = <T extends IndexArray>(name: IndexArrayName, type: new (length: number) => T): T => {
    const array = a[name];
    if (!(array instanceof type)) throw new Error(`paperlist: index parts lack the array ${name}`);
    return array;
  };
  const u8 = (name: IndexArrayName) => get(name, Uint8Array);
  const u16 = (name: IndexArrayName) => get(name, Uint16Array);
  const u32 = (name: IndexArrayName) => get(name, Uint32Array);
  const u16or32 = (name: IndexArrayName) => (a[name] instanceof Uint16Array ? u16(name) : u32(name));
  const i32 = (name: IndexArrayName) => get(name, Int32Array);
  const n = parts.n;
  const table = (prefix: string) =>
    new DocSetTable(
      n,
      u32(`${prefix}.df` as IndexArrayName),
      u32(`${prefix}.docsAt` as IndexArrayName),
      u8(`${prefix}.dense` as IndexArrayName),
      u32(`${prefix}.listDocs` as IndexArrayName),
      u32(`${prefix}.bitsets` as IndexArrayName),
      u16(`${prefix}.listLows` as IndexArrayName),
      parts.groupShift,
    );
  const fieldText = (prefix: string) =>
    new FieldText(
      table(`${prefix}.chars`),
      new Vocabulary(u16(`${prefix}.runChars` as IndexArrayName), u32(`${prefix}.runStarts` as IndexArrayName)),
      table(`${prefix}.runDocs`),
      u32(`${prefix}.unicode` as IndexArrayName),
      table(`${prefix}.unicodeDocs`),
      u32(`${prefix}.nonAscii` as IndexArrayName),
      table(`${prefix}.edges`),
      table(`${prefix}.gaps`),
      u8(`${prefix}.gapKept` as IndexArrayName),
      table(`${prefix}.pairs`),
      u8(`${prefix}.pairKept` as IndexArrayName),
    );
  const store = new PaperStore(
    parts.json,
    u16('chunkOf'),
    u32('start'),
    u16or32('length'),
    u16or32('titleAt'),
    u16or32('abstractAt'),
    i32('idTable'),
  );
  const rest: IndexWithoutDeferred = {
    n,
    digest: parts.digest,
    vocabulary: new Vocabulary(u16('vocabularyChars'), u32('vocabularyStarts')),
    shortPrefixes: table('shortPrefixes'),
    postings: new Postings(
      n,
      u32('df'),
      u32('docsAt'),
      u8('dense'),
      u32('listDocs'),
      u32('bitsets'),
      u32('rankDirectory'),
      u32('positionsAt'),
      u16('positions'),
      u32('skipAt'),
      u32('skip'),
      u16('listLows'),
      parts.groupShift,
    ),
    successors: new Successors(u32('successorFrequent'), u32('successorAnchors'), u32('successorCodesAt'), u8('successorCodes')),
    layout: new FieldLayout(u16('titleLength'), u16('abstractLength'), u16('authorsLength'), u32('oversize'), u32('oversizeLengths'), { ...parts.averages }),
    store,
    orders: new OrderBook({
      n,
      ranks: { id: u32('rankId'), title: u32('rankTitle'), published: u32('rankPublished'), arxiv_id: u32('rankArxiv') },
      maxRank: { ...parts.maxRank },
      byId: u32('byId'),
      publishedAsc: u32('publishedAsc'),
      arxivAsc: u32('arxivAsc'),
      arxivDesc: u32('arxivDesc'),
      titleDesc: u32('titleDesc'),
    }),
    publishedDays: u32('publishedDays'),
    authorNames: new AuthorNames(
      u32('authorWordNamesAt'),
      u32('authorWordNames'),
      table('authorNameDocs'),
      table('authorShortPrefixes'),
      new SortedStrings(u8('authorNames.bytes'), u32('authorNames.starts')),
    ),
    proceedings: new ValueSets(new SortedStrings(u8('proceedingValues.bytes'), u32('proceedingValues.starts')), table('proceedings')),
    venues: new ValueSets(new SortedStrings(u8('venueValues.bytes'), u32('venueValues.starts')), table('venues')),
    tasks: new ValueSets(new SortedStrings(u8('taskValues.bytes'), u32('taskValues.starts')), table('tasks')),
    methods: new ValueSets(new SortedStrings(u8('methodValues.bytes'), u32('methodValues.starts')), table('methods')),
    annotations: new AnnotationStore(u8('annotationJson'), u32('annotationAt')),
  };
  if (parts.deferred === true) return withDeferredTables(rest);
  return withTables(rest, {
    suffixOrder: u32('suffixOrder'),
    titleText: fieldText('titleText'),
    abstractText: fieldText('abstractText'),
    commonWords: new CommonWordFields(u32('commonWords'), table('commonWordsTitle'), table('commonWordsAbstract')),
  });
}
