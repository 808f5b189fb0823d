import { titleKey } from './title-key.js';
import type { Paper } from '../paper.js';
import { OrderBook, type OrderData } from './orders.js';
import { PaperStoreBuilder } from './paper-store.js';
import { denseRanks, inverse, sortByRank, sortByRankThen } from './ranks.js';
import { compareCodePoints } from '../ordering/title-sort-key.js';
import { ASCII_ABSTRACT, ASCII_TITLE, PaperTokenizer, type TokenData } from './paper-tokens.js';
import { ABSTRACT_GAPS, FieldTextBuilder, TITLE_GAPS } from './substring/field-text.js';
import { commonWordFields } from './substring/common-word-fields.js';
import { uint32Array } from './alloc.js';
import { AuthorNames, AuthorNamesBuilder } from './author-names.js';
import { publishedDays } from './published-range.js';
import { ValueSets } from './value-sets.js';
import { venueKey } from '../filters/venue-key.js';
import { keptAnnotations, methodSlugs, taskSlugs, type PaperAnnotations } from '../annotations/annotations.js';
import { AnnotationStore } from './annotation-store.js';
import { layoutTokens, sortVocabulary, type TokensElsewhere } from './token-layout.js';
import { suffixOrder } from './suffix-order.js';
import { DEFER_TABLES_UP_TO, fieldTextsOf, withDeferredTables, withTables, type IndexWithoutDeferred } from './deferred-tables.js';
import type { IndexData } from './index-data.js';

export type { IndexData };

/**
 * Builds an index from papers given one at a time (so a catalogue can be streamed in): each
 * paper is serialized into the store and split into word numbers right away, and only those
 * compact numbers are kept until {@link finish} lays out the postings. Peak memory is the
 * JSON, the varint word numbers (about 1.5 bytes a word) and the finished index.
 *
 * @example
 * const builder = new IndexBuilder();
 * for await (const paper of readPapers(path)) builder.add(paper);
 * const index = builder.finish();
 */
export class IndexBuilder {
  /** Null when the papers are tokenized elsewhere (see {@link addTokenized}). */
  private readonly tokenizer: PaperTokenizer | null;
  private readonly store: PaperStoreBuilder;
  private ids: string[] = [];
  private published: (string | null)[] = [];
  private proceedings: (string | null)[] = [];
  private notes: (PaperAnnotations | undefined)[] = [];
  private readonly authorNames = new AuthorNamesBuilder();
  private arxivIds: (string | null)[] = [];
  private titleKeys: string[] = [];
  // Here, not beside the tokenizer, though they read the same text: in a build on two threads
  // the tokenizing thread had the most work, and this one waited for it. None in a delta (its
  // tables are read back from the stored papers, when at all).
  private readonly titleText: FieldTextBuilder | null;
  private readonly abstractText: FieldTextBuilder | null;
  private finished = false;
  private readonly deferTables: boolean;
  /**
   * Called between the phases of {@link finish} (each a few to a few hundred milliseconds): a
   * background merge pauses there while a write batch is built (see `threads/merge-gate.ts`).
   */
  checkpoint: (() => void) | null = null;

  /**
   * @param expectedJsonBytes an estimate of the catalogue's JSON size, to allocate its storage at once (see `estimateJsonBytes`).
   * @param tokenizeHere false when another thread tokenizes the papers: they are then added with
   *   {@link addTokenized} and the index finished with that thread's `TokenData`.
   * @param deferTables true for a write batch's delta: an index of `DEFER_TABLES_UP_TO` papers
   *   or fewer is then finished without the tables only some queries read, which are built when
   *   first read (see `deferred-tables.ts`); a larger one builds them at its finish, from the
   *   stored papers, as the same tables.
   */
  constructor(expectedJsonBytes = 0, tokenizeHere = true, deferTables = false) {
    this.store = new PaperStoreBuilder(expectedJsonBytes);
    this.tokenizer = tokenizeHere ? new PaperTokenizer() : null;
    this.deferTables = deferTables;
    this.titleText = deferTables ? null : new FieldTextBuilder(TITLE_GAPS);
    this.abstractText = deferTables ? null : new FieldTextBuilder(ABSTRACT_GAPS);
  }

  /** Papers added so far. */
  get size(): number {
    return this.ids.length;
  }

  /** Adds a paper, with its tasks and methods when it has any (kept beside it, see `PaperAnnotations`). */
  add(paper: Paper, annotations?: PaperAnnotations): void {
    if (this.finished) throw new Error('paperlist: the index is already built');
    const tokenizer = this.tokenizer;
    if (tokenizer === null) throw new Error('paperlist: this builder takes papers tokenized elsewhere (addTokenized)');
    tokenizer.add(paper);
    const ascii = (tokenizer.titleAscii ? ASCII_TITLE : 0) | (tokenizer.abstractAscii ? ASCII_ABSTRACT : 0);
    this.addTokenized(paper, annotations, tokenizer.words, tokenizer.authorsFrom, tokenizer.authorEnds, 0, ascii);
  }

  /**
   * Adds a paper that a `PaperTokenizer` (here or on another thread) has just tokenized, from
   * what the rest of the index needs of that: the word numbers of its author names, name `a`
   * ending before `words[authorEnds[endsFrom + a]]`, the first starting at `authorsFrom`; and
   * `ascii`, whether its title ({@link ASCII_TITLE}) and abstract ({@link ASCII_ABSTRACT}) are
   * pure ASCII.
   */
  addTokenized(
    paper: Paper,
    annotations: PaperAnnotations | undefined,
    words: Uint32Array,
    authorsFrom: number,
    authorEnds: ArrayLike<number>,
    endsFrom: number,
    ascii: number,
  ): void {
    if (this.finished) throw new Error('paperlist: the index is already built');
    this.notes.push(keptAnnotations(annotations));
    this.store.add(paper);
    this.titleText?.add(paper.title, (ascii & ASCII_TITLE) !== 0);
    this.abstractText?.add(paper.abstract, (ascii & ASCII_ABSTRACT) !== 0);
    let from = authorsFrom;
    const names = paper.authors;
    for (let a = 0; a < names.length; a++) {
      const to = authorEnds[endsFrom + a]!;
      this.authorNames.addName(names[a]!, words, from, to);
      from = to;
    }
    this.authorNames.endPaper();
    this.ids.push(paper.id);
    this.published.push(paper.published);
    this.proceedings.push(paper.proceeding);
    this.arxivIds.push(paper.arxiv_id);
    this.titleKeys.push(titleKey(paper.title));
  }

  /**
   * Lays out the index. Throws on a duplicate id. The builder cannot be used afterwards.
   * `tokens`: when the papers were tokenized elsewhere, what that thread made of them, or that
   * thread itself, which then lays out the token half of the index (see `token-layout.ts`)
   * while this one lays out the rest.
   */
  finish(tokens?: TokenData | TokensElsewhere): IndexData {
    if (this.finished) throw new Error('paperlist: the index is already built');
    this.finished = true;
    const n = this.ids.length;
    const made = this.tokenizer?.finish() ?? tokens;
    if (made === undefined) throw new Error('paperlist: the papers were tokenized elsewhere, and finish was not given their tokens');
    const elsewhere = 'layout' in made ? made : null;
    const data = 'layout' in made ? null : made;
    if (data !== null && data.stream.starts.length !== n) throw new Error(`paperlist: ${data.stream.starts.length} papers were tokenized, ${n} added`);

    // Orders. Documents are numbered by title then id: the default order is the numbering.
    const days = publishedDays(this.published);
    // The other thread lays out the postings from the moment the order is known, while this one does the rest.
    const { order, data: orderData } = this.layoutOrders((order) => elsewhere?.order(order));
    const checkpoint = this.checkpoint ?? noCheckpoint;
    checkpoint();
    const proceedingOf = this.proceedings;
    this.proceedings = [];
    const proceedings = ValueSets.build(n, (d) => proceedingOf[order[d]!]!);
    const venueOf = proceedingOf.map(venueKey);
    const venues = ValueSets.build(n, (d) => venueOf[order[d]!]!);
    const notes = this.notes;
    this.notes = [];
    const noteOf = (d: number) => notes[order[d]!];
    const tasks = ValueSets.buildMulti(n, (d) => taskSlugs(noteOf(d)));
    const methods = ValueSets.buildMulti(n, (d) => methodSlugs(noteOf(d)));
    const annotations = AnnotationStore.build(n, noteOf);
    checkpoint();
    const store = this.store.finish(order);
    checkpoint();
    const sorted = elsewhere === null ? sortVocabulary(data!.words, !this.deferTables) : elsewhere.vocabulary();
    const { vocabulary, renumber } = sorted;
    checkpoint();
    const authorNames = this.authorNames.finish(n, vocabulary.size, renumber, order);
    const authors = new AuthorNames(
      authorNames.wordNamesAt,
      authorNames.wordNames,
      authorNames.docs,
      AuthorNames.shortPrefixTable(vocabulary, authorNames.wordNamesAt, authorNames.wordNames, authorNames.docs),
      authorNames.names,
    );
    checkpoint();
    // The substring tables and the digest before the wait for the other thread's token half, which takes longer.
    const deferred = this.deferTables && n <= DEFER_TABLES_UP_TO;
    const texts = deferred ? null : this.titleText === null || this.abstractText === null ? fieldTextsOf(n, store) : { title: this.titleText.finish(order), abstract: this.abstractText.finish(order) };
    checkpoint();
    // Without annotations the digest (and so every ETag) is what it was before they existed.
    const digest = annotations.isEmpty ? store.digest() : `${store.digest()}-${annotations.digest()}`;
    checkpoint();
    const laid = elsewhere === null ? layoutTokens(n, order, sorted, data!) : elsewhere.layout();
    checkpoint();
    const rest: IndexWithoutDeferred = {
      n,
      vocabulary,
      postings: laid.postings,
      successors: laid.successors,
      shortPrefixes: laid.shortPrefixes,
      layout: laid.layout,
      store,
      orders: new OrderBook(orderData),
      publishedDays: days,
      authorNames: authors,
      proceedings,
      venues,
      tasks,
      methods,
      annotations,
      digest,
    };
    if (texts === null) return withDeferredTables(rest);
    return withTables(rest, {
      suffixOrder: sorted.suffixOrder ?? suffixOrder(vocabulary),
      titleText: texts.title,
      abstractText: texts.abstract,
      // A tokenizing thread made them with the postings; here, after the token half: a few hundred ms at 498k.
      commonWords: laid.commonWords ?? commonWordFields(n, laid.postings, laid.layout),
    });
  }

  /** `ordered` is told the documents' order as soon as it is known, before the other orders are laid out. */
  private layoutOrders(ordered: (order: Uint32Array) => void): { order: Uint32Array; data: OrderData } {
    const n = this.ids.length;
    const ids = this.ids;
    this.ids = [];
    const title = denseRanks(this.titleKeys);
    this.titleKeys = [];
    // By title, then id: only papers of the same title have their ids compared, so the order is
    // known (and a tokenizing thread can lay out the postings) before the ids are ranked. The ids'
    // ranks are code point order too, so this is the order of titles then id ranks.
    const order = sortByRankThen(title.ranks, title.distinct, (a, b) => compareCodePoints(ids[a]!, ids[b]!));
    ordered(order);
    const id = denseRanks(ids);
    const published = denseRanks(this.published, true);
    this.published = [];
    const arxiv = denseRanks(this.arxivIds);
    this.arxivIds = [];

    const byIdInput = inverse(id.ranks);
    const numberOf = inverse(order);
    const renumberRanks = (ranks: Uint32Array) => {
      const out = uint32Array(n);
      for (let d = 0; d < n; d++) out[d] = ranks[order[d]!]!;
      return out;
    };
    const ranks = {
      id: renumberRanks(id.ranks),
      title: renumberRanks(title.ranks),
      published: renumberRanks(published.ranks),
      arxiv_id: renumberRanks(arxiv.ranks),
    };
    const byId = uint32Array(n);
    for (let r = 0; r < n; r++) byId[r] = numberOf[byIdInput[r]!]!;
    const identity = uint32Array(n);
    for (let d = 0; d < n; d++) identity[d] = d;
    const data: OrderData = {
      n,
      ranks,
      maxRank: { id: id.distinct, title: title.distinct, published: published.distinct, arxiv_id: arxiv.distinct },
      byId,
      publishedAsc: sortByRank(byId, ranks.published, published.distinct, false),
      arxivAsc: sortByRank(byId, ranks.arxiv_id, arxiv.distinct, false),
      arxivDesc: sortByRank(byId, ranks.arxiv_id, arxiv.distinct, true),
      titleDesc: sortByRank(identity, ranks.title, title.distinct, true),
    };
    return { order, data };
  }

}

function noCheckpoint(): void {}
