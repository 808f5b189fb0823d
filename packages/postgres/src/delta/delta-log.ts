import { paperWords, type FieldLengths, type Paper, type PaperWords } from '@paperlist/core';
import { SELECT_PAPER } from '../list-sql.js';
import type { SchemaNames } from '../schema.js';
import { StalePostingsError, type RunStatement } from '../term-postings.js';
import { parseIntArray } from '../term-resolver.js';
import { retiredNames } from './retired-ordinals-migration.js';

/** A paper written since the posting lists were built (its ordinal is above theirs), with what matching and scoring it needs. */
export interface DeltaPaper {
  ord: number;
  paper: Paper;
  words: PaperWords;
  lengths: FieldLengths;
  lowerTitle: string;
  lowerAbstract: string;
}

/** The catalogue's totals in one snapshot: papers, and each field's summed length (null when a writer outside paperlist left them unknown). */
export interface DeltaTotals {
  total: number;
  sums: FieldLengths | null;
}

/**
 * The catalogue at one version, as one generation of the posting lists and the writes since
 * describe it: the lists' papers still stored, plus the live papers written since.
 * Immutable; read through its {@link DeltaLog}.
 */
export class DeltaView implements DeltaTotals {
  private liveCache: DeltaPaper[] | undefined;
  /** Per term's list papers (by array), how many this view still holds: counted once per view. */
  readonly heldCounts = new WeakMap<Int32Array, number>();

  constructor(
    readonly log: DeltaLog,
    readonly version: string,
    readonly total: number,
    readonly sums: FieldLengths | null,
    /** The read of the log this view is (retirements of later reads are not yet seen). */
    readonly read: number,
    /** How many of the log's papers this view holds (later ones were written after it). */
    readonly written: number,
    /** How many of the lists' papers are retired in this view. */
    readonly retiredLists: number,
  ) {}

  /** Whether a list ordinal is still the catalogue's in this view. */
  holds(ord: number): boolean {
    const retired = this.log.listRetired[ord]!;
    return retired === 0 || retired > this.read;
  }

  /** The papers written since the lists and still stored, ascending by ordinal. */
  live(): readonly DeltaPaper[] {
    if (this.liveCache === undefined) {
      const out: DeltaPaper[] = [];
      for (let i = 0; i < this.written; i++) if (this.holdsDelta(i)) out.push(this.log.papers[i]!);
      this.liveCache = out;
    }
    return this.liveCache;
  }

  /** Whether the log's `index`-th paper is stored in this view. */
  holdsDelta(index: number): boolean {
    if (index >= this.written) return false;
    const retired = this.log.deltaRetired.get(this.log.papers[index]!.ord);
    return retired === undefined || retired > this.read;
  }

  /** No write since the lists changed anything: they alone are the catalogue. */
  get unchanged(): boolean {
    return this.retiredLists === 0 && this.live().length === 0;
  }
}

/** Options of a {@link DeltaLog}. */
export interface DeltaLogOptions {
  names: SchemaNames;
  /** The lists' generation (`postings_version`) and last ordinal (`postings_through`). */
  generation: string;
  through: number;
  /** Runs a statement outside any request (the read is shared). */
  run: RunStatement;
  /** Most papers the log holds; past it, it gives up (the SQL statements answer) until the next whole import. */
  maxPapers: number;
}

/**
 * What writes changed since one generation of the posting lists, read incrementally in the
 * background as versions move: the ordinals retired (from `paperlist_retired`, in commit order)
 * and the papers written (ordinals above the lists', handed out in commit order too), each read
 * of both in one snapshot with the version and totals. Each read makes a {@link DeltaView}.
 * A paper never changes under its ordinal, so what was read stays true; a read only adds.
 */
export class DeltaLog {
  /** Per list ordinal, the read that found it retired (0: stored). */
  readonly listRetired: Uint32Array;
  /** Per ordinal above the lists', the read that found it retired. */
  readonly deltaRetired = new Map<number, number>();
  /** The papers written since the lists, ascending by ordinal (retired ones included). */
  papers: DeltaPaper[] = [];
  /** Per term: the indexes of `papers` it matches (see delta-matches.ts); emptied when papers are added. */
  readonly hits = new Map<string, readonly number[]>();
  /** Per word of the written papers (any field): the indexes of `papers` holding it, ascending. */
  private readonly wordPapers = new Map<string, number[]>();
  /** The words of `wordPapers` in code unit order (a prefix's words are a range), made again after papers are added. */
  private sortedWords: string[] | null = null;

  private reads = 0;
  private retiredSeq = 0;
  private retiredLists = 0;
  private lastOrd: number;
  private latest: DeltaView | null = null;
  private pending: Promise<void> | null = null;
  /** Set when the log gave up: too many papers, or papers without ordinals (written outside paperlist). */
  private abandoned = false;

  constructor(private readonly options: DeltaLogOptions) {
    this.listRetired = new Uint32Array(options.through + 1);
    this.lastOrd = options.through;
  }

  get through(): number {
    return this.options.through;
  }

  /**
   * The catalogue at `version` or later, or `null` when the log cannot say (gave up).
   * Throws {@link StalePostingsError} when the lists are no longer of this generation.
   */
  async view(version: string): Promise<DeltaView | null> {
    // Two reads at most: a read replica behind another may answer an older version than asked.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (this.abandoned) return null;
      const latest = this.latest;
      if (latest !== null && Number(latest.version) >= Number(version)) return latest;
      if (this.pending === null) {
        const reading = this.readMore().finally(() => {
          if (this.pending === reading) this.pending = null;
        });
        this.pending = reading;
      }
      await this.pending;
    }
    return this.abandoned ? null : this.latest;
  }

  /** The indexes of the papers holding a word, ascending (none: empty). */
  papersWithWord(word: string): readonly number[] {
    return this.wordPapers.get(word) ?? [];
  }

  /** The indexes of the papers holding a word that starts with `prefix`, ascending. */
  papersWithPrefix(prefix: string): number[] {
    this.sortedWords ??= [...this.wordPapers.keys()].sort();
    const words = this.sortedWords;
    let lo = 0;
    let hi = words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (words[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    let lists = 0;
    for (let i = lo; i < words.length && words[i]!.startsWith(prefix); i++, lists++) for (const index of this.wordPapers.get(words[i]!)!) found.push(index);
    if (lists <= 1) return found;
    found.sort((a, b) => a - b);
    let n = 0;
    for (let i = 0; i < found.length; i++) if (i === 0 || found[i] !== found[i - 1]) found[n++] = found[i]!;
    found.length = n;
    return found;
  }

  private append(ord: number, paper: Paper): void {
    const words = paperWords(paper);
    const index = this.papers.length;
    this.papers.push({
      ord,
      paper,
      words,
      lengths: { title: words.title.length, abstract: words.abstract.length, authors: words.authors.reduce((sum, name) => sum + name.length, 0) },
      lowerTitle: paper.title.toLowerCase(),
      lowerAbstract: paper.abstract.toLowerCase(),
    });
    for (const word of new Set([...words.title, ...words.abstract, ...words.authors.flat()])) {
      const holding = this.wordPapers.get(word);
      if (holding === undefined) {
        this.wordPapers.set(word, [index]);
        this.sortedWords = null;
      } else holding.push(index);
    }
  }

  private async readMore(): Promise<void> {
    const { names, run, generation, maxPapers } = this.options;
    const retired = retiredNames(names).table;
    const room = maxPapers - this.papers.length;
    const [row] = await run<DeltaRow>(
      `SELECT s.version::text AS version, s.postings_version::text AS generation,
          coalesce(s.total, (SELECT count(*) FROM ${names.papers}))::float8 AS total,
          s.title_len_sum::float8 AS title, s.authors_len_sum::float8 AS authors, s.abstract_len_sum::float8 AS abstract,
          EXISTS (SELECT 1 FROM ${names.papers} WHERE ord IS NULL) AS untracked,
          (SELECT coalesce(max(seq), 0) FROM ${retired})::float8 AS seq,
          ARRAY(SELECT ord FROM ${retired} WHERE seq > $1) AS retired,
          (SELECT coalesce(json_agg(p ORDER BY p.ord), '[]'::json)::text
            FROM (SELECT ord, ${SELECT_PAPER} FROM ${names.papers} WHERE ord > $2 ORDER BY ord LIMIT $3) p) AS papers
        FROM ${names.state} s`,
      [this.retiredSeq, this.lastOrd, room + 1],
    );
    if (row === undefined || row.generation === null || `${row.generation}` !== generation) {
      throw new StalePostingsError('paperlist: the posting lists were built again');
    }
    const written = JSON.parse(row.papers) as (Paper & { ord: number })[];
    if (row.untracked || written.length > room) {
      this.abandon();
      return;
    }
    const read = ++this.reads;
    for (const value of parseIntArray(row.retired)) {
      if (value <= this.options.through) {
        if (value >= 1 && this.listRetired[value] === 0) {
          this.listRetired[value] = read;
          this.retiredLists++;
        }
      } else if (!this.deltaRetired.has(value)) this.deltaRetired.set(value, read);
    }
    this.retiredSeq = Math.max(this.retiredSeq, Number(row.seq));
    if (written.length > 0) this.hits.clear();
    for (const { ord, ...paper } of written) {
      this.append(ord, paper);
      this.lastOrd = ord;
    }
    const sums = row.title === null || row.authors === null || row.abstract === null ? null : { title: Number(row.title), authors: Number(row.authors), abstract: Number(row.abstract) };
    this.latest = new DeltaView(this, `${row.version}`, Number(row.total), sums, read, this.papers.length, this.retiredLists);
  }

  private abandon(): void {
    this.abandoned = true;
    this.papers = [];
    this.hits.clear();
    this.wordPapers.clear();
    this.sortedWords = null;
    this.latest = null;
  }
}

interface DeltaRow {
  version: string;
  generation: string | null;
  total: number;
  title: number | null;
  authors: number | null;
  abstract: number | null;
  untracked: boolean;
  seq: number;
  retired: number[] | string;
  papers: string;
}
