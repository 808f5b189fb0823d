import type { FacetFacts } from './facet-facts.js';
import type { FactColumn } from './facet-facts-builder.js';
import type { DictionaryWords } from './dictionary-words.js';
import type { RecheckTexts } from './recheck-texts.js';
import type { PaperFacts, TermPostings } from './term-postings.js';
import type { DeltaLog } from './delta/delta-log.js';

const MAX_CACHED = 20_000;

/**
 * What the source keeps of one generation of the posting lists (one whole import: see
 * postings-migration.ts): the lists read and merged, the per-paper tables, and the sets made
 * from them. All of it describes the lists' papers, which never change under their ordinals, so
 * it stays exact across writes; what writes changed since is the {@link DeltaLog}'s.
 */
export class ListsCache {
  /** Terms' merged posting lists by prefix, least recently used first (see postings-list.ts). */
  readonly postings = new Map<string, Promise<TermPostings>>();
  /** Bytes held by each settled entry of `postings`, and in all. */
  readonly postingSizes = new Map<string, number>();
  postingBytes = 0;
  /** Substring filters' matching list papers by `field:needle` (see postings-list.ts). */
  readonly substrings = new Map<string, Promise<Int32Array>>();
  /** The list papers passing fact filters (dates, venues…), by key (see fact-filters.ts). */
  readonly filtered = new Map<string, Promise<Int32Array>>();
  /** The paper facts (lengths, flags, order ranks), read once. */
  facts: Promise<PaperFacts> | undefined;
  /** The words that have posting lists, for substring filters (see dictionary-words.ts), read once. */
  dictionary: Promise<DictionaryWords> | undefined;
  /** Per field, the texts substring filters check themselves (see recheck-texts.ts), read once. */
  readonly rechecks = new Map<'title' | 'abstract', Promise<RecheckTexts>>();
  /** Each column's facet facts, read once when first asked for (see facet-facts.ts). */
  readonly facetFacts = new Map<FactColumn, Promise<FacetFacts>>();

  /**
   * @param generation the catalogue version the lists were built at (`postings_version`)
   * @param delta what writes changed since (null: the lists' last ordinal is not recorded)
   */
  constructor(
    readonly generation: string,
    readonly delta: DeltaLog | null,
  ) {}

  /** Keeps the cache bounded: forgets a map's sets when it grows too large. */
  trim(): void {
    for (const map of [this.substrings, this.filtered]) if (map.size > MAX_CACHED) map.clear();
  }
}
