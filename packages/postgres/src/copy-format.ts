import { textWords, titleSortKey, type Paper } from '@paperlist/core';
import { dictionaryWord, fieldText, MAX_DICTIONARY_WORD } from './text-columns.js';
import type { WordDictionary } from './word-dictionary.js';
import { RECHECK_ABSTRACT, RECHECK_TITLE, type PostingsBuilder } from './postings-builder.js';
import type { FacetFactsBuilder } from './facet-facts-builder.js';
import { grown } from './grown-array.js';

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value in COPY's text format: `\N` for null, backslash escapes for `\`, newline, CR and tab. */
export function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (ch) => COPY_ESCAPES[ch]!) : value;
}

/** A `text[]` literal: `{"a","b \"c\""}`. */
export function arrayLiteral(values: readonly string[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += `"${values[i]!.replace(/[\\"]/g, '\\$&')}"`;
  }
  return `${out}}`;
}

/** A row in COPY's text format. */
export function copyRow(values: readonly (string | null)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += i === 0 ? copyValue(values[i]!) : `\t${copyValue(values[i]!)}`;
  return `${line}\n`;
}

/** Lower-cased text and whether it is pure ASCII. */
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/** {@link fieldText} of lower-case ASCII text, straight from the text. */
function asciiFieldText(lower: string): string {
  const spaced = lower.replace(ASCII_SEPARATORS, '  ');
  const start = spaced.startsWith('  ') ? 2 : 0;
  const end = spaced.endsWith('  ') ? spaced.length - 2 : spaced.length;
  return end <= start ? '' : ` ${spaced.slice(start, end)} `;
}

/** What a whole catalogue's import gathers beside the rows. */
export interface WholeCatalogue {
  postings: PostingsBuilder;
  facets: FacetFactsBuilder;
}

/**
 * Turns papers into rows of `papers` (every column of ALL_COLUMNS), giving each new word an
 * id in the word dictionary (whose `added` words are stored with the papers). The derived
 * columns are those of `deriveColumns`, computed without a string per word where the text is
 * ASCII.
 */
export class PaperEncoder {
  // Per word id: the last paper (numbered from 1) that listed it, to list each id once per paper.
  private seen: Int32Array = new Int32Array(1 << 16);
  /** Scratch: the current paper's distinct ids. */
  private distinct: Int32Array = new Int32Array(1 << 12);
  private ids: Int32Array = new Int32Array(1 << 12);
  private papers = 0;
  /** Papers encoded and the sums of their field lengths (the catalogue's totals after a bulk load). */
  readonly totals = { papers: 0, title: 0, authors: 0, abstract: 0 };

  /**
   * @param firstOrd the ordinal (`papers.ord`) of the first paper encoded; each next paper gets the next one.
   * @param whole gathers the papers' posting lists and facet facts (a whole catalogue's import), or null.
   */
  constructor(
    readonly dictionary: WordDictionary,
    firstOrd = 1,
    readonly whole: WholeCatalogue | null = null,
  ) {
    this.nextOrd = firstOrd;
  }

  private nextOrd: number;

  /** The values of a paper's columns, as text (null for SQL NULL). */
  values(paper: Paper): (string | null)[] {
    const row = this.encode(paper);
    return [
      paper.id,
      paper.arxiv_id,
      paper.nips_id,
      paper.url_abs,
      paper.url_pdf,
      paper.title,
      paper.abstract,
      arrayLiteral(paper.authors),
      paper.published,
      paper.conference,
      paper.conference_url_abs,
      paper.conference_url_pdf,
      paper.proceeding,
      row.titleKey,
      row.titleLower,
      row.abstractLower,
      row.titleText,
      row.authorsText,
      row.abstractText,
      String(row.titleLength),
      String(row.authorsLength),
      String(row.abstractLength),
      row.wordIds,
      String(row.ord),
    ];
  }

  /** A paper's row in COPY text format: the derived columns need no escaping (letters, digits, spaces, `|`). */
  copyLine(paper: Paper): string {
    const d = this.encode(paper);
    return (
      `${copyValue(paper.id)}\t${copyValue(paper.arxiv_id)}\t${copyValue(paper.nips_id)}\t${copyValue(paper.url_abs)}\t` +
      `${copyValue(paper.url_pdf)}\t${copyValue(paper.title)}\t${copyValue(paper.abstract)}\t${copyValue(arrayLiteral(paper.authors))}\t` +
      `${copyValue(paper.published)}\t${copyValue(paper.conference)}\t${copyValue(paper.conference_url_abs)}\t` +
      `${copyValue(paper.conference_url_pdf)}\t${copyValue(paper.proceeding)}\t${copyValue(d.titleKey)}\t` +
      `${copyValue(d.titleLower)}\t${copyValue(d.abstractLower)}\t${d.titleText}\t${d.authorsText}\t${d.abstractText}\t` +
      `${d.titleLength}\t${d.authorsLength}\t${d.abstractLength}\t${d.wordIds}\t${d.ord}\n`
    );
  }

  private encode(paper: Paper): EncodedColumns {
    this.count = 0;
    const title = this.field(paper.title);
    const titleEnd = this.count;
    const abstract = this.field(paper.abstract);
    const abstractEnd = this.count;
    let authorsText = '';
    let authorsLength = 0;
    for (let i = 0; i < paper.authors.length; i++) {
      const name = this.field(paper.authors[i]!);
      authorsLength += name.length;
      authorsText += i === 0 ? name.text : `|${name.text}`;
    }
    const totals = this.totals;
    totals.papers++;
    totals.title += title.length;
    totals.authors += authorsLength;
    totals.abstract += abstract.length;
    const ord = this.nextOrd++;
    const titleKey = titleSortKey(paper.title);
    if (this.whole !== null) {
      const flags = (title.recheck ? RECHECK_TITLE : 0) | (abstract.recheck ? RECHECK_ABSTRACT : 0);
      const order = { titleKey, published: paper.published, arxivId: paper.arxiv_id, id: paper.id };
      this.whole.facets.addPaper(ord, paper);
      this.whole.postings.addPaper(ord, this.ids, this.count, titleEnd, abstractEnd, { title: title.length, authors: authorsLength, abstract: abstract.length, flags }, order);
    }
    return {
      ord,
      titleKey,
      titleLower: title.ascii ? null : paper.title.toLowerCase(),
      abstractLower: abstract.ascii ? null : paper.abstract.toLowerCase(),
      titleText: title.text,
      authorsText,
      abstractText: abstract.text,
      titleLength: title.length,
      authorsLength,
      abstractLength: abstract.length,
      wordIds: this.distinctIds(),
    };
  }

  private count = 0;

  /**
   * A field's stored text and word count; its word ids go to `ids`. `recheck`: a substring of
   * the field can be found from its words only when it is ASCII with no word cut in the dictionary.
   */
  private field(text: string): { text: string; length: number; ascii: boolean; recheck: boolean } {
    if (this.count + (text.length >> 1) + 1 > this.ids.length) this.growIds(this.count + (text.length >> 1) + 1);
    if (!NON_ASCII.test(text)) {
      const lower = text.toLowerCase();
      const before = this.count;
      this.count = this.dictionary.asciiWordIds(lower, MAX_DICTIONARY_WORD, this.ids, this.count);
      // A word the dictionary cuts (see MAX_DICTIONARY_WORD).
      const recheck = this.dictionary.longWord;
      return { text: asciiFieldText(lower), length: this.count - before, ascii: true, recheck };
    }
    const words = textWords(text);
    if (this.count + words.length > this.ids.length) this.growIds(this.count + words.length);
    for (const word of words) this.ids[this.count++] = this.dictionary.idOf(dictionaryWord(word));
    return { text: fieldText(words), length: words.length, ascii: false, recheck: true };
  }

  /**
   * `{3,5,17}`: the distinct ids collected for the current paper, ascending. The server sorts
   * each array it indexes (GIN); sorted here, its sort finds them in order in one pass (a
   * comparison through the function manager each: about 5 % of the server's work in the load).
   */
  private distinctIds(): string {
    const paper = ++this.papers;
    if (this.distinct.length < this.count) this.distinct = new Int32Array(this.ids.length);
    const distinct = this.distinct;
    let n = 0;
    for (let i = 0; i < this.count; i++) {
      const id = this.ids[i]!;
      if (id >= this.seen.length) this.seen = grown(this.seen, id + 1);
      if (this.seen[id] === paper) continue;
      this.seen[id] = paper;
      distinct[n++] = id;
    }
    distinct.subarray(0, n).sort();
    let out = '';
    for (let i = 0; i < n; i++) out += i === 0 ? String(distinct[i]) : `,${distinct[i]}`;
    return `{${out}}`;
  }

  private growIds(needed: number): void {
    this.ids = grown(this.ids, needed);
  }
}

interface EncodedColumns {
  ord: number;
  titleKey: string;
  titleLower: string | null;
  abstractLower: string | null;
  titleText: string;
  authorsText: string;
  abstractText: string;
  titleLength: number;
  authorsLength: number;
  abstractLength: number;
  wordIds: string;
}

/**
 * Why PostgreSQL could not store a paper as it is, or undefined: text cannot hold U+0000,
 * and UTF-8 cannot hold a lone surrogate (JSON's `"\ud800"`).
 */
export function unstorableReason(paper: Paper): string | undefined {
  for (const [field, value] of Object.entries(paper) as [string, unknown][]) {
    const values = Array.isArray(value) ? (value as string[]) : [value];
    for (const text of values) {
      if (typeof text !== 'string') continue;
      if (text.includes('\u0000')) return `field "${field}": PostgreSQL text cannot hold the character U+0000`;
      if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) return `field "${field}": a lone surrogate cannot be stored as UTF-8`;
    }
  }
  return undefined;
}
