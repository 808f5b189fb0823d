import { uint32Array } from './alloc.js';
import { Growable } from './growable.js';
import { DocSetTable } from './doc-set-table.js';
import { bitsetWords, countBits } from './bits.js';
import { bitsSet, EMPTY_SET, listSet, setToBits, sortUnique, type DocSet } from './doc-set.js';
import { CHAR_SETS, charSet } from './substring/field-text.js';
import { unionSets } from './set-union.js';
import { SortedStrings } from './sorted-strings.js';
import type { Vocabulary } from './vocabulary.js';
import { spend } from './work-budget.js';

/**
 * The author names of the catalogue, for `author=`: every distinct name (as written) gets a
 * number; the names of each word of the vocabulary (`wordNames`, a list per word number, so
 * the names holding a word that starts with a prefix are one contiguous slice) and the
 * documents of each name (`docs`). A search intersects the name lists of its words, then
 * unions the documents of the names left: the work is the names of its words and the papers
 * of the matching names, never the catalogue. At 498k papers: 532k distinct names, about
 * 20 MB.
 */
export class AuthorNames {
  constructor(
    /** Where word `w`'s names start in `wordNames`; `wordNamesAt[V]` is the end. */
    readonly wordNamesAt: Uint32Array,
    /** Name numbers, ascending within each word. */
    readonly wordNames: Uint32Array,
    /** The documents of each name. */
    readonly docs: DocSetTable,
    /**
     * Per ASCII letter or digit (`charSet`): the documents with an author word starting with it.
     * `author=a` would otherwise union the papers of a third of all names.
     */
    readonly shortPrefixes: DocSetTable,
    /** The names as written, sorted (name `i` is `names.get(i)`): `author_name=` and the `author` facet. */
    readonly names: SortedStrings,
  ) {}

  /** The {@link shortPrefixes} table of these names (built once, with the index). */
  static shortPrefixTable(vocabulary: Vocabulary, wordNamesAt: Uint32Array, wordNames: Uint32Array, docs: DocSetTable): DocSetTable {
    const names = new AuthorNames(wordNamesAt, wordNames, docs, DocSetTable.build(docs.n, 0, () => {}), SortedStrings.fromSorted([]));
    const sets: DocSet[] = [];
    for (let set = 0; set < CHAR_SETS; set++) {
      sets.push(names.matchOne(vocabulary, [String.fromCharCode(set < 26 ? 97 + set : 48 + set - 26)]));
    }
    const n = docs.n;
    const bits = sets.map((set) => setToBits(set, n));
    return DocSetTable.build(n, CHAR_SETS, (add) => {
      for (let d = 0; d < n; d++) {
        const word = d >>> 5;
        const bit = 1 << (d & 31);
        for (let set = 0; set < CHAR_SETS; set++) if ((bits[set]![word]! & bit) !== 0) add(d, set);
      }
    });
  }

  /**
   * The documents with an author name holding every word of one alternative: each word but
   * the last as a whole word, the last as a prefix (words folded as `q`'s are).
   */
  match(vocabulary: Vocabulary, alternatives: readonly (readonly string[])[]): DocSet {
    let result: DocSet = EMPTY_SET;
    for (const words of alternatives) result = unionSets(result, this.matchOne(vocabulary, words), this.docs.n);
    return result;
  }

  private matchOne(vocabulary: Vocabulary, words: readonly string[]): DocSet {
    if (words.length === 1 && words[0]!.length === 1 && this.shortPrefixes.size === CHAR_SETS) {
      const set = charSet(words[0]!.charCodeAt(0));
      if (set >= 0) return this.shortPrefixes.set(set);
    }
    // Each word's names are one slice of `wordNames`: a whole word's is sorted, a prefix's is
    // the lists of its words one after the other (a name may repeat). Intersecting by marks
    // over the names costs the slices' lengths, with no sorting.
    const slices: [number, number][] = [];
    for (let i = 0; i < words.length; i++) {
      let from: number;
      let to: number;
      if (i < words.length - 1) {
        from = vocabulary.find(words[i]!);
        if (from < 0) return EMPTY_SET;
        to = from + 1;
      } else {
        [from, to] = vocabulary.prefixRange(words[i]!);
      }
      const start = this.wordNamesAt[from]!;
      const end = this.wordNamesAt[to]!;
      if (start === end) return EMPTY_SET;
      slices.push([start, end]);
    }
    slices.sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
    const names = this.docs.size;
    const marks = uint32Array(bitsetWords(names));
    const wordNames = this.wordNames;
    // The candidates: the smallest slice's names, each once.
    const [first, last] = slices[0]!;
    spend(last - first);
    let candidates = uint32Array(last - first);
    let count = 0;
    for (let k = first; k < last; k++) {
      const name = wordNames[k]!;
      const bit = 1 << (name & 31);
      if ((marks[name >>> 5]! & bit) === 0) {
        marks[name >>> 5]! |= bit;
        candidates[count++] = name;
      }
    }
    marks.fill(0);
    for (let s = 1; s < slices.length && count > 0; s++) {
      const [from, to] = slices[s]!;
      spend((to - from) * 2 + count);
      for (let k = from; k < to; k++) marks[wordNames[k]! >>> 5]! |= 1 << (wordNames[k]! & 31);
      let kept = 0;
      for (let i = 0; i < count; i++) {
        const name = candidates[i]!;
        if ((marks[name >>> 5]! & (1 << (name & 31))) !== 0) candidates[kept++] = name;
      }
      count = kept;
      for (let k = from; k < to; k++) marks[wordNames[k]! >>> 5] = 0;
    }
    candidates = candidates.subarray(0, count);
    return this.documentsOf(candidates);
  }

  /** The documents of some names (each once): a sorted list when few, else a bitset. */
  private documentsOf(names: Uint32Array): DocSet {
    const table = this.docs;
    const { df, dense, wordsPerSet, n } = table;
    if (names.length === 0) return EMPTY_SET;
    let total = 0;
    for (let i = 0; i < names.length; i++) total += df[names[i]!]!;
    spend(names.length + total);
    if (total * 32 <= n) {
      const docs = uint32Array(total);
      let at = 0;
      for (let i = 0; i < names.length; i++) {
        // A name with few documents is a list (only one holding over 1/16 of them is a bitset).
        table.copyList(names[i]!, docs, at);
        at += df[names[i]!]!;
      }
      return listSet(sortUnique(docs));
    }
    const bits = uint32Array(wordsPerSet);
    for (let i = 0; i < names.length; i++) {
      if (dense[names[i]!] === 1) spend(wordsPerSet);
      table.orInto(names[i]!, bits);
    }
    spend(wordsPerSet);
    return bitsSet(bits, countBits(bits));
  }
}

/**
 * Collects the author names while papers are added (in input order), and lays out the
 * arrays of {@link AuthorNames} once the vocabulary and the document order are known.
 */
export class AuthorNamesBuilder {
  private readonly numberOf = new Map<string, number>();
  // Per name: its distinct build-time word numbers.
  private nameWordsAt = new Growable(uint32Array);
  private nameWords = new Growable(uint32Array);
  // Per paper (input order): its name numbers.
  private paperNamesAt = new Growable(uint32Array);
  private paperNames = new Growable(uint32Array);

  constructor() {
    this.nameWordsAt.push(0);
    this.paperNamesAt.push(0);
  }

  /** Adds one name of the current paper; `words[from..to)` are its build-time word numbers. */
  addName(name: string, words: Uint32Array, from: number, to: number): void {
    let number = this.numberOf.get(name);
    if (number === undefined) {
      number = this.numberOf.size;
      this.numberOf.set(name, number);
      const first = this.nameWords.length;
      for (let k = from; k < to; k++) {
        const w = words[k]!;
        let seen = false;
        for (let j = first; j < this.nameWords.length && !seen; j++) seen = this.nameWords.get(j) === w;
        if (!seen) this.nameWords.push(w);
      }
      this.nameWordsAt.push(this.nameWords.length);
    }
    this.paperNames.push(number);
  }

  /** Ends the current paper. */
  endPaper(): void {
    this.paperNamesAt.push(this.paperNames.length);
  }

  /**
   * The finished table: `renumber` maps build-time word numbers to the sorted vocabulary's
   * (`words` of them), `order[d]` is the input paper of document `d`.
   */
  finish(
    n: number,
    words: number,
    renumber: Uint32Array,
    order: Uint32Array,
  ): { wordNamesAt: Uint32Array; wordNames: Uint32Array; docs: DocSetTable; names: SortedStrings } {
    const names = this.numberOf.size;
    // Names are numbered in sorted order (UTF-16 code units, the vocabulary's), so a name is found by binary search.
    const sorted = [...this.numberOf.keys()].sort();
    const rank = uint32Array(names);
    sorted.forEach((name, r) => (rank[this.numberOf.get(name)!] = r));
    this.numberOf.clear();
    const counts = uint32Array(words + 1);
    const nameWords = this.nameWords.array;
    const nameWordsAt = this.nameWordsAt.array;
    const paperNames = this.paperNames.array;
    const paperNamesAt = this.paperNamesAt.array;
    for (let k = 0; k < this.nameWords.length; k++) counts[renumber[nameWords[k]!]! + 1]!++;
    for (let w = 0; w < words; w++) counts[w + 1]! += counts[w]!;
    const wordNamesAt = counts.slice();
    const cursor = counts;
    const wordNames = uint32Array(this.nameWords.length);
    for (let name = 0; name < names; name++) {
      for (let k = nameWordsAt[name]!; k < nameWordsAt[name + 1]!; k++) wordNames[cursor[renumber[nameWords[k]!]!]!++] = rank[name]!;
    }
    // Each word's names ascending again, now by their sorted numbers.
    for (let w = 0; w < words; w++) wordNames.subarray(wordNamesAt[w]!, wordNamesAt[w + 1]!).sort();
    // A paper listing one name twice is one document of it.
    const last = new Int32Array(names);
    const docs = DocSetTable.build(n, names, (add) => {
      last.fill(0);
      for (let d = 0; d < n; d++) {
        const paper = order[d]!;
        for (let k = paperNamesAt[paper]!; k < paperNamesAt[paper + 1]!; k++) {
          const name = rank[paperNames[k]!]!;
          if (last[name] === d + 1) continue;
          last[name] = d + 1;
          add(d, name);
        }
      }
    });
    return { wordNamesAt, wordNames, docs, names: SortedStrings.fromSorted(sorted) };
  }
}
