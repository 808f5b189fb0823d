import type { FieldLengths } from '../search/relevance.js';
import { lowerBound } from './doc-set.js';

/**
 * Where each field of a document sits in its positions, and the field lengths BM25 needs.
 * A document's words are numbered title first, then a gap, the abstract, a gap, and each
 * author name followed by a gap, so a phrase can never run from one field into the next:
 * title `[0, T)`, abstract `[T + 1, T + A]`, authors after. Documents too long for the
 * positions' bits are "oversize": the engine answers for them with the reference functions.
 */
export class FieldLayout {
  constructor(
    readonly titleLength: Uint16Array,
    readonly abstractLength: Uint16Array,
    readonly authorsLength: Uint16Array,
    /** Oversize documents, ascending (almost always none). */
    readonly oversize: Uint32Array,
    /** Field lengths of the oversize documents: title, abstract, authors of each in turn. */
    readonly oversizeLengths: Uint32Array,
    /** Mean field lengths over the catalogue. */
    readonly averages: FieldLengths,
  ) {}

  /** Writes the field lengths of document `d` into `out`. */
  lengthsOf(d: number, out: FieldLengths): FieldLengths {
    const i = this.oversize.length === 0 ? -1 : lowerBound(this.oversize, d, 0, this.oversize.length);
    if (i >= 0 && i < this.oversize.length && this.oversize[i] === d) {
      out.title = this.oversizeLengths[3 * i]!;
      out.abstract = this.oversizeLengths[3 * i + 1]!;
      out.authors = this.oversizeLengths[3 * i + 2]!;
    } else {
      out.title = this.titleLength[d]!;
      out.abstract = this.abstractLength[d]!;
      out.authors = this.authorsLength[d]!;
    }
    return out;
  }
}

/** Counts of one term in one document, six per document: title, abstract, authors; whole then prefix. */
export const COUNTS_PER_DOC = 6;
