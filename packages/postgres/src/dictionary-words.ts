import type { SchemaNames } from './schema.js';
import { textsEndToEnd } from './texts-end-to-end.js';
import { StalePostingsError, toBytes, type RunStatement } from './term-postings.js';

/** The dictionary words containing a substring: what reading their lists needs. */
export interface WordsContaining {
  /** Their ids in `paperlist_words`, ascending. */
  ids: number[];
  /** Their lists' entries in all (the sum of their document frequencies). */
  entries: number;
}

/**
 * The words of a catalogue version that have posting lists, held in memory (one string, the
 * words in id order, each followed by a line break): a substring filter finds the words containing its needle
 * with `indexOf` over a few megabytes instead of a `strpos` over every row of
 * `paperlist_words` on the server (about 100 ms of its CPU at 463k words, per distinct needle).
 */
export class DictionaryWords {
  private constructor(
    private readonly text: string,
    /** Per word: where it starts in `text`; one more entry: the end of the text. */
    private readonly starts: Int32Array,
    private readonly ids: Int32Array,
    private readonly dfs: Int32Array,
  ) {}

  /** The words as `paperlist_words` holds them, with their ids and document frequencies, in id order. */
  static of(words: readonly string[], ids: Int32Array, dfs: Int32Array): DictionaryWords {
    if (words.length !== ids.length || words.length !== dfs.length) throw new Error('paperlist: a dictionary needs one id and one frequency per word');
    const { text, starts } = textsEndToEnd(words, '\n');
    return new DictionaryWords(text, starts, ids, dfs);
  }

  /**
   * The words as one text, each followed by a line break (as read: no string per word), or `null`
   * when the text does not hold one line per id.
   */
  static fromLines(text: string, ids: Int32Array, dfs: Int32Array): DictionaryWords | null {
    if (ids.length !== dfs.length) return null;
    const starts = new Int32Array(ids.length + 1);
    let word = 0;
    for (let at = 0; at < text.length; word++) {
      if (word >= ids.length) return null;
      starts[word] = at;
      const end = text.indexOf('\n', at);
      if (end < 0) return null;
      at = end + 1;
    }
    if (word !== ids.length) return null;
    starts[word] = text.length;
    return new DictionaryWords(text, starts, ids, dfs);
  }

  /** Number of words. */
  get size(): number {
    return this.ids.length;
  }

  /** Bytes held (the text counted at two bytes a character, as V8 may store it). */
  get bytes(): number {
    return 2 * this.text.length + this.starts.byteLength + this.ids.byteLength + this.dfs.byteLength;
  }

  /** The words containing `needle` (no line break in it). */
  containing(needle: string): WordsContaining {
    const ids: number[] = [];
    let entries = 0;
    let at = needle === '' ? -1 : this.text.indexOf(needle);
    while (at >= 0) {
      const word = this.wordAt(at);
      ids.push(this.ids[word]!);
      entries += this.dfs[word]!;
      // On from the next word: each word once, however often the needle is in it.
      at = this.text.indexOf(needle, this.starts[word + 1]!);
    }
    return { ids, entries };
  }

  /** The word whose characters include position `at` of the text. */
  private wordAt(at: number): number {
    let low = 0;
    let high = this.ids.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/**
 * Reads the dictionary words of `version` that have posting lists, in one row (the words as
 * one text, the ids and frequencies as big-endian int32s). {@link StalePostingsError} unless
 * the lists are those of `version`.
 */
export async function readDictionaryWords(names: SchemaNames, version: string, run: RunStatement): Promise<DictionaryWords> {
  const [row] = await run<{ version: string | null; words: string | null; ids: Uint8Array | string | null; dfs: Uint8Array | string | null }>(
    `SELECT (SELECT postings_version::text FROM ${names.state}) AS version,
        string_agg(w.word, E'\\n' ORDER BY w.id) AS words,
        string_agg(int4send(w.id), ''::bytea ORDER BY w.id) AS ids,
        string_agg(int4send(p.df), ''::bytea ORDER BY w.id) AS dfs
      FROM ${names.words} w JOIN ${names.postings} p ON p.word_id = w.id`,
    [],
  );
  if (row === undefined || row.version === null || `${row.version}` !== version) throw new StalePostingsError('paperlist: the posting lists are stale');
  if (row.words === null) return DictionaryWords.of([], new Int32Array(0), new Int32Array(0));
  const dictionary = DictionaryWords.fromLines(`${row.words}\n`, bigEndianInts(toBytes(row.ids!)), bigEndianInts(toBytes(row.dfs!)));
  // A word holding a line break would shift every later one: refuse the dictionary rather than misread it.
  if (dictionary === null) throw new StalePostingsError('paperlist: a dictionary word holds a line break');
  return dictionary;
}

function bigEndianInts(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(bytes.byteLength >>> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(4 * i);
  return out;
}
