import type { PaperRecord } from '../encoded-paper.js';
import type { Paper } from '../paper.js';
import { formatOrderKeys } from '../ordering/parse-ordering.js';
import { prefixWeightOf, termScore, termWeight } from '../search/relevance.js';
import { termMatches, termOccurrences } from '../search/term-occurrences.js';
import type { OrderKey, PaperPage, PaperQuery, SearchTerm, SourceCallOptions } from '../source.js';
import { keptAnnotations, type AnnotationMap, type PaperAnnotations } from '../annotations/annotations.js';
import { buildCatalogue, type Catalogue } from './catalogue.js';
import { hasExtensionFilters, matchesExtensionFilters } from '../filters/reference-filters.js';
import { compareIndicesBy, orderPermutation } from './order-ranks.js';
import { compareToPosition } from '../pagination/cursor.js';
import { referenceFacets } from '../facets/reference-facets.js';
import { netChanges, papersAfter } from '../writes/apply-changes.js';
import { checkChanges, deletes, upserts } from '../writes/check-changes.js';
import type { WritableSource, WriteResult } from '../writes/paper-changes.js';

/** A {@link PaperSource} holding the whole catalogue in memory, that can be written to and swapped. */
export interface MemorySource extends WritableSource {
  /** Number of papers. */
  readonly size: number;
  /** Changes whenever the catalogue is replaced or written to. */
  version(): string;
  /**
   * Inserts or replaces papers by `id` (a later one of the same id wins), as one atomic batch;
   * resolves once the change is visible. An invalid paper rejects the whole batch with
   * `InvalidChangeError`, nothing applied.
   */
  upsert(papers: readonly Paper[]): Promise<WriteResult>;
  /** Deletes papers by id (absent ids are skipped), as one atomic batch; resolves once visible. */
  remove(ids: readonly string[]): Promise<WriteResult>;
  /**
   * Swaps in a new catalogue atomically: it is built aside, and requests see either the
   * old catalogue or the new one, never a mix.
   */
  replace(papers: readonly Paper[], annotations?: AnnotationMap): void;
  /** The tasks and methods of a paper (empty when it has none), or `null` when there is no such paper. */
  annotations(id: string, options?: SourceCallOptions): Promise<PaperAnnotations | null>;
}

/** Options of the scan source (and the base of the memory source's). */
export interface ScanSourceOptions {
  /** A fixed catalogue version for ETags; by default one is derived from the content. */
  version?: string;
  /**
   * Tasks and methods by paper id (from the Papers with Code dump: see `readCatalog`'s
   * `annotations`), for the `task=`/`method=` filters and `annotations(id)`. They stay beside
   * the papers: a write keeps an upserted paper's annotations and a delete drops them.
   */
  annotations?: AnnotationMap;
}

/**
 * The reference in-memory source: answers every query exactly by scanning every paper with
 * the reference matching and scoring functions. Orderings are precomputed as rank arrays and
 * permutations (built once per ordering and cached), so no request re-sorts the catalogue.
 * Simple and obviously right rather than fast: other sources are tested against it.
 *
 * @example
 * const source = createScanSource(await loadSamplePapers());
 * const { count, results } = await source.list(query);
 */
export function createScanSource(papers: readonly Paper[], options: ScanSourceOptions = {}): MemorySource {
  let notes = keepAnnotations(papers, options.annotations);
  let state = new CatalogueState(buildCatalogue(papers), options.version, notes);
  return {
    get size() {
      return state.catalogue.papers.length;
    },
    version: () => state.version(),
    replace(next, annotations) {
      notes = keepAnnotations(next, annotations);
      state = new CatalogueState(buildCatalogue(next), undefined, notes);
    },
    async write(changes) {
      checkChanges(changes);
      const { papers, byId } = state.catalogue;
      const { final, result } = netChanges(changes, (id) => byId.has(id));
      const next = [...papersAfter(papers, final)];
      notes = keepAnnotations(next, notes);
      state = new CatalogueState(buildCatalogue(next), undefined, notes);
      return result;
    },
    upsert(papers) {
      return this.write(upserts(papers));
    },
    remove(ids) {
      return this.write(deletes(ids));
    },
    async list(query) {
      return state.list(query);
    },
    async get(id) {
      const index = state.catalogue.byId.get(id);
      return index === undefined ? null : state.catalogue.encoded[index]!;
    },
    async annotations(id) {
      if (!state.catalogue.byId.has(id)) return null;
      return state.annotations.get(id) ?? { tasks: [], methods: [] };
    },
  };
}

class CatalogueState {
  private readonly permutations = new Map<string, Uint32Array>();
  private readonly fixedVersion: string;

  constructor(
    readonly catalogue: Catalogue,
    version: string | undefined,
    readonly annotations: AnnotationMap,
  ) {
    this.fixedVersion = version ?? `m${catalogue.papers.length}-${contentHash(catalogue)}`;
  }

  version(): string {
    return this.fixedVersion;
  }

  list(query: PaperQuery): PaperPage {
    const n = this.catalogue.papers.length;
    const matched = this.match(query);
    const count = matched === null ? n : matched.length;
    const facets = query.facets === undefined || query.facets.length === 0 ? undefined : referenceFacets((matched ?? allIndices(n)).map((i) => this.catalogue.papers[i]!), query.facets, (id) => this.annotations.get(id));
    const page = (results: PaperRecord[]): PaperPage => (facets === undefined ? { count, results } : { count, results, facets });
    if (query.limit === 0 || query.offset >= count) return page([]);
    const end = query.offset + query.limit;
    let window: number[];
    if (query.ordering.kind === 'relevance') {
      window = this.rankByRelevance(matched ?? allIndices(n), query.terms, query.ordering.then).slice(query.offset, end);
    } else if (query.after !== undefined) {
      // A cursor walk's page: the matches after the position, in order (the reference: a filter and a sort).
      const { keys } = query.ordering;
      const after = query.after;
      const later = (matched ?? allIndices(n)).filter((i) => compareToPosition(this.catalogue.papers[i]!, keys, after) > 0);
      window = later.sort(compareIndicesBy(keys, this.catalogue.ranks)).slice(0, query.limit);
    } else {
      window = this.walkOrder(query.ordering.keys, matched, query.offset, end);
    }
    return page(window.map((i): PaperRecord => this.catalogue.encoded[i]!));
  }

  /** Indices of matching papers in catalogue order, or `null` when every paper matches. */
  private match(query: PaperQuery): number[] | null {
    const { filters, terms } = query;
    const { papers, words, lowerTitles, lowerAbstracts } = this.catalogue;
    const title = filters.titleContains?.toLowerCase();
    const abstract = filters.abstractContains?.toLowerCase();
    const extensions = hasExtensionFilters(filters);
    if (terms.length === 0 && filters.arxivId === undefined && title === undefined && abstract === undefined && !extensions) return null;
    const matched: number[] = [];
    for (let i = 0; i < papers.length; i++) {
      const paper = papers[i]!;
      if (filters.arxivId !== undefined && paper.arxiv_id !== filters.arxivId) continue;
      if (title !== undefined && !lowerTitles[i]!.includes(title)) continue;
      if (abstract !== undefined && !lowerAbstracts[i]!.includes(abstract)) continue;
      if (extensions && !matchesExtensionFilters(paper, words[i]!.authors, filters, this.annotations.get(paper.id))) continue;
      if (terms.every((term) => termMatches(termOccurrences(words[i]!, paper.arxiv_id, term)))) matched.push(i);
    }
    return matched;
  }

  private walkOrder(keys: readonly OrderKey[], matched: number[] | null, start: number, end: number): number[] {
    const permutation = this.permutation(keys);
    if (matched === null) return Array.from(permutation.subarray(start, end));
    // Few matches: sort them by rank; many: walk the precomputed order.
    if (matched.length * 16 < permutation.length) {
      return matched.slice().sort(compareIndicesBy(keys, this.catalogue.ranks)).slice(start, end);
    }
    const isMatch = new Uint8Array(permutation.length);
    for (const i of matched) isMatch[i] = 1;
    const window: number[] = [];
    let seen = 0;
    for (let p = 0; p < permutation.length && window.length < end - start; p++) {
      const i = permutation[p]!;
      if (!isMatch[i]) continue;
      if (seen >= start) window.push(i);
      seen++;
    }
    return window;
  }

  private rankByRelevance(matched: number[], terms: readonly SearchTerm[], then: readonly OrderKey[]): number[] {
    const { papers, words, lengths, averages } = this.catalogue;
    const idfs = terms.map((term) => {
      let df = 0;
      for (let i = 0; i < papers.length; i++) {
        if (termMatches(termOccurrences(words[i]!, papers[i]!.arxiv_id, term))) df++;
      }
      return termWeight(papers.length, df);
    });
    const prefixWeights = terms.map(prefixWeightOf);
    const scores = new Map<number, number>();
    for (const i of matched) {
      let score = 0;
      terms.forEach((term, t) => {
        score += termScore(idfs[t]!, termOccurrences(words[i]!, papers[i]!.arxiv_id, term), lengths[i]!, averages, prefixWeights[t]);
      });
      scores.set(i, score);
    }
    const tieBreak = compareIndicesBy(then, this.catalogue.ranks);
    return matched.slice().sort((a, b) => scores.get(b)! - scores.get(a)! || tieBreak(a, b));
  }

  private permutation(keys: readonly OrderKey[]): Uint32Array {
    const name = formatOrderKeys(keys);
    let permutation = this.permutations.get(name);
    if (!permutation) {
      permutation = orderPermutation(keys, this.catalogue.ranks, this.catalogue.papers.length);
      this.permutations.set(name, permutation);
    }
    return permutation;
  }
}

/** The annotations of the given papers only (a paper written or deleted away loses its own). */
function keepAnnotations(papers: readonly Paper[], annotations: AnnotationMap | undefined): AnnotationMap {
  const kept = new Map<string, PaperAnnotations>();
  if (annotations === undefined || annotations.size === 0) return kept;
  for (const paper of papers) {
    const found = keptAnnotations(annotations.get(paper.id));
    if (found !== undefined) kept.set(paper.id, found);
  }
  return kept;
}

function allIndices(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

// A short content digest so equal catalogues give equal ETags across processes.
function contentHash(catalogue: Catalogue): string {
  let h = 0x811c9dc5;
  for (const paper of catalogue.encoded) {
    const bytes = paper.json;
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  }
  return (h >>> 0).toString(16);
}
