import { bitsToList } from '../bits.js';
import { lowerBound, type DocSet } from '../doc-set.js';
import { DocSetTable } from '../doc-set-table.js';
import type { FieldLayout } from '../field-layout.js';
import { DENSE, GROUPED, LAST, POSITION, type Postings } from '../postings.js';

/**
 * A word is "common" when it occurs at least once per this many documents: walking its
 * positions to learn which field holds it would cost more than reading its two field sets.
 */
const COMMON_EVERY = 2;

/**
 * The commonest words' documents, by field: for each word with at least one occurrence per
 * two documents (at 498k papers about twenty: `the`, `of`, `a`, `with`, `that`, …), the
 * documents whose title holds it and those whose abstract holds it.
 *
 * A substring filter whose needle lies inside such a word (`abstract=th`, `title=he`) takes
 * the word's set at once: walking `the`'s millions of positions to tell the title from the
 * abstract was most of its time. About 2 MB at 498k papers.
 */
export class CommonWordFields {
  constructor(
    /** The common words' numbers, ascending; word `words[s]` has sets number `s`. */
    readonly words: Uint32Array,
    readonly title: DocSetTable,
    readonly abstract: DocSetTable,
  ) {}

  /** The number of word `w`'s sets, or -1 when it is not common. */
  slot(w: number): number {
    const i = lowerBound(this.words, w, 0, this.words.length);
    return i < this.words.length && this.words[i] === w ? i : -1;
  }

  /** The documents whose `field` holds the common word of `slot`, read from its positions. */
  set(field: 'title' | 'abstract', slot: number): DocSet {
    return (field === 'title' ? this.title : this.abstract).set(slot);
  }
}

/** Finds the common words and records, from their positions, the fields that hold each in each document. */
export function commonWordFields(n: number, postings: Postings, layout: FieldLayout): CommonWordFields {
  const { df, positionsAt, positions } = postings;
  const common: number[] = [];
  for (let w = 0; w < df.length; w++) {
    if (df[w]! > 0 && (positionsAt[w + 1]! - positionsAt[w]!) * COMMON_EVERY >= n) common.push(w);
  }
  const words = Uint32Array.from(common);
  // Per common word, its documents in order and, for each, bit 1: in the title, bit 2: in the abstract.
  const docsOf: Uint32Array[] = [];
  const fieldsOf: Uint8Array[] = [];
  const { titleLength, abstractLength } = layout;
  for (const w of words) {
    const docs = postingDocs(postings, w);
    const fields = new Uint8Array(docs.length);
    let off = positionsAt[w]!;
    for (let i = 0; i < docs.length; i++) {
      const d = docs[i]!;
      const title = titleLength[d]!;
      const abstractEnd = title + abstractLength[d]!;
      let seen = 0;
      for (;;) {
        const v = positions[off++]!;
        const q = v & POSITION;
        // The same field bounds as the walks of the substring filter (see FieldLayout).
        if (q < title) seen |= 1;
        else if (q > title && q <= abstractEnd) seen |= 2;
        if ((v & LAST) !== 0) break;
      }
      fields[i] = seen;
    }
    docsOf.push(docs);
    fieldsOf.push(fields);
  }
  const table = (bit: number) =>
    DocSetTable.build(n, words.length, (add) => {
      for (let s = 0; s < words.length; s++) {
        const docs = docsOf[s]!;
        const fields = fieldsOf[s]!;
        for (let i = 0; i < docs.length; i++) if ((fields[i]! & bit) !== 0) add(docs[i]!, s);
      }
    });
  return new CommonWordFields(words, table(1), table(2));
}

/** Word `w`'s documents, ascending. */
function postingDocs(postings: Postings, w: number): Uint32Array {
  const df = postings.df[w]!;
  if (postings.dense[w] !== DENSE) return postings.dense[w] === GROUPED ? postings.docsOf(w, new Uint32Array(df)) : postings.docsOf(w);
  return bitsToList(postings.bitsOf(w), df);
}
