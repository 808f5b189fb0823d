import type { FieldLengths } from '../search/relevance.js';
import type { OrderField } from '../source.js';
import type { IndexData } from './builder.js';
import { FieldLayout } from './field-layout.js';
import { OrderBook } from './orders.js';
import { PaperStore } from './paper-store.js';
import { Postings } from './postings.js';
import { Vocabulary } from './vocabulary.js';

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
  readonly arrays: Readonly<Record<IndexArrayName, IndexArray>>;
  /** The papers' JSON, in chunks. */
  readonly json: readonly Uint8Array[];
}

/** The layout version written by this code. */
export const INDEX_FORMAT = 1;

/** Every array of the index, by name (see the classes that use them). */
export const INDEX_ARRAY_NAMES = [
  'vocabularyChars',
  'vocabularyStarts',
  'df',
  'docsAt',
  'dense',
  'listDocs',
  'bitsets',
  'rankDirectory',
  'positionsAt',
  'positions',
  'skipAt',
  'skip',
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
  'arxivTable',
  'arxivNext',
  'rankId',
  'rankTitle',
  'rankPublished',
  'rankArxiv',
  'byId',
  'publishedAsc',
  'publishedDesc',
  'arxivAsc',
  'arxivDesc',
  'titleDesc',
] as const;

export type IndexArrayName = (typeof INDEX_ARRAY_NAMES)[number];

/** The parts of a built index. */
export function indexParts(index: IndexData): IndexParts {
  const { vocabulary: v, postings: p, layout: l, store: s, orders } = index;
  const o = orders.data;
  return {
    format: INDEX_FORMAT,
    n: index.n,
    digest: index.digest,
    averages: { ...l.averages },
    maxRank: { ...o.maxRank },
    json: s.chunks,
    arrays: {
      vocabularyChars: v.chars,
      vocabularyStarts: v.starts,
      df: p.df,
      docsAt: p.docsAt,
      dense: p.dense,
      listDocs: p.listDocs,
      bitsets: p.bitsets,
      rankDirectory: p.rankDirectory,
      positionsAt: p.positionsAt,
      positions: p.positions,
      skipAt: p.skipAt,
      skip: p.skip,
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
      arxivTable: s.arxivTable,
      arxivNext: s.arxivNext,
      rankId: o.ranks.id,
      rankTitle: o.ranks.title,
      rankPublished: o.ranks.published,
      rankArxiv: o.ranks.arxiv_id,
      byId: o.byId,
      publishedAsc: o.publishedAsc,
      publishedDesc: o.publishedDesc,
      arxivAsc: o.arxivAsc,
      arxivDesc: o.arxivDesc,
      titleDesc: o.titleDesc,
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
  const i32 = (name: IndexArrayName) => get(name, Int32Array);
  const n = parts.n;
  const store = new PaperStore(
    parts.json,
    u16('chunkOf'),
    u32('start'),
    u32('length'),
    u32('titleAt'),
    u32('abstractAt'),
    i32('idTable'),
    i32('arxivTable'),
    i32('arxivNext'),
  );
  return {
    n,
    digest: parts.digest,
    vocabulary: new Vocabulary(u16('vocabularyChars'), u32('vocabularyStarts')),
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
    ),
    layout: new FieldLayout(u16('titleLength'), u16('abstractLength'), u16('authorsLength'), u32('oversize'), u32('oversizeLengths'), { ...parts.averages }),
    store,
    orders: new OrderBook({
      n,
      ranks: { id: u32('rankId'), title: u32('rankTitle'), published: u32('rankPublished'), arxiv_id: u32('rankArxiv') },
      maxRank: { ...parts.maxRank },
      byId: u32('byId'),
      publishedAsc: u32('publishedAsc'),
      publishedDesc: u32('publishedDesc'),
      arxivAsc: u32('arxivAsc'),
      arxivDesc: u32('arxivDesc'),
      titleDesc: u32('titleDesc'),
    }),
  };
}
