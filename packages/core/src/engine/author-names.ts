import { uint32Array } from './alloc.js';
import { Growable } from './growable.js';
import { DocSetTable } from './doc-set-table.js';
import { EMPTY_SET, intersectLists, sortUnique, type DocSet } from './doc-set.js';
import { unionOfTableSets, unionSets } from './set-union.js';
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
  ) {}

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
    const lists: Uint32Array[] = [];
    for (let i = 0; i < words.length; i++) {
      let from: number;
      let to: number;
      if (i < words.length - 1) {
        from = vocabulary.find(words[i]!);
        to = from + 1;
        if (from < 0) return EMPTY_SET;
      } else {
        [from, to] = vocabulary.prefixRange(words[i]!);
      }
      const start = this.wordNamesAt[from]!;
      const end = this.wordNamesAt[to]!;
      if (start === end) return EMPTY_SET;
      // One word's names are sorted already; a prefix's words' names are concatenated lists.
      if (to - from === 1) lists.push(this.wordNames.subarray(start, end));
      else {
        spend(end - start);
        lists.push(sortUnique(this.wordNames.slice(start, end)));
      }
    }
    lists.sort((a, b) => a.length - b.length);
    let names = lists[0]!;
    for (let i = 1; i < lists.length && names.length > 0; i++) names = intersectLists(names, lists[i]!);
    return unionOfTableSets(this.docs, names, this.docs.n);
  }
}

/**
 * Collects the author names while papers are added (in input order), and lays out
 * {@link AuthorNames} once the vocabulary and the document order are known.
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
  finish(n: number, words: number, renumber: Uint32Array, order: Uint32Array): AuthorNames {
    const names = this.numberOf.size;
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
      for (let k = nameWordsAt[name]!; k < nameWordsAt[name + 1]!; k++) wordNames[cursor[renumber[nameWords[k]!]!]!++] = name;
    }
    // A paper listing one name twice is one document of it.
    const last = new Int32Array(names);
    const docs = DocSetTable.build(n, names, (add) => {
      last.fill(0);
      for (let d = 0; d < n; d++) {
        const paper = order[d]!;
        for (let k = paperNamesAt[paper]!; k < paperNamesAt[paper + 1]!; k++) {
          const name = paperNames[k]!;
          if (last[name] === d + 1) continue;
          last[name] = d + 1;
          add(d, name);
        }
      }
    });
    return new AuthorNames(wordNamesAt, wordNames, docs);
  }
}
