import type { Vocabulary } from './vocabulary.js';
import type { Postings } from './postings.js';
import type { Successors } from './successors.js';
import type { DocSetTable } from './doc-set-table.js';
import type { FieldLayout } from './field-layout.js';
import type { FieldText } from './substring/field-text.js';
import type { CommonWordFields } from './substring/common-word-fields.js';
import type { PaperStore } from './paper-store.js';
import type { OrderBook } from './orders.js';
import type { AuthorNames } from './author-names.js';
import type { ValueSets } from './value-sets.js';
import type { AnnotationStore } from './annotation-store.js';

/** Everything an engine answers from: built once, never changed. */
export interface IndexData {
  readonly n: number;
  readonly vocabulary: Vocabulary;
  /** Word numbers ordered by their text read backwards: the words ending with a suffix are a range. */
  readonly suffixOrder: Uint32Array;
  readonly postings: Postings;
  /** What follows each occurrence of the commonest words: phrases of common words. */
  readonly successors: Successors;
  /** Per ASCII letter or digit (`charSet`): the documents holding a word that starts with it. */
  readonly shortPrefixes: DocSetTable;
  readonly layout: FieldLayout;
  /** What titles and abstracts hold, for the substring filters. */
  readonly titleText: FieldText;
  readonly abstractText: FieldText;
  /** The commonest words' documents by field, for the substring filters. */
  readonly commonWords: CommonWordFields;
  readonly store: PaperStore;
  readonly orders: OrderBook;
  /** The distinct `published` days, ascending, as `YYYYMMDD` (`publishedDays[r]` is published rank `r`): date ranges. */
  readonly publishedDays: Uint32Array;
  /** The author names and their words: `author=`. */
  readonly authorNames: AuthorNames;
  /** Documents by exact `proceeding`. */
  readonly proceedings: ValueSets;
  /** Documents by venue key (see `venueKey`). */
  readonly venues: ValueSets;
  /** Documents by task slug (see `nameSlug`): `task=`. */
  readonly tasks: ValueSets;
  /** Documents by method slug: `method=`. */
  readonly methods: ValueSets;
  /** The documents' tasks and methods (from the Papers with Code dump). */
  readonly annotations: AnnotationStore;
  /** Digest of the content, for the catalogue version. */
  readonly digest: string;
}
