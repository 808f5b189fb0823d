import type { IndexData } from '../engine/builder.js';
import { type DocSet, setSize } from '../engine/doc-set.js';
import { Engine, isSilent } from '../engine/engine.js';
import { authorFacetAcross, facetCounts } from '../engine/facet-counts.js';
import { MAX_FACET_LIMIT } from '../facets/facet-params.js';
import type { RelevanceWeights } from '../engine/relevance.js';
import type { TermMatch } from '../engine/term-match.js';
import { withLimits, type WorkLimits } from '../engine/work-budget.js';
import { CUT_FACETS, type FacetCounts, type FacetField } from '../facets/facet-types.js';
import type { OrderKey, PaperQuery } from '../source.js';
import { sumFacets } from './facet-sums.js';
import { liveWeights } from './live-weights.js';
import { mergedWindow, mergeSorted, type Before } from './merge-runs.js';
import { compareDocsBy, orderValuesOf, type OrderValues } from './order-values.js';
import { catalogueSize, findLive, liveCount, liveSet, type Segment } from './segment.js';

/** Documents of a catalogue in segments: hit `i` is document `docs[i]` of segment `segments[i]` (a position in the catalogue's list). */
export interface SegmentHits {
  segments: Uint32Array;
  docs: Uint32Array;
}

/** The answer of a {@link SegmentedEngine}: the exact count, the window's documents, the facets asked for. */
export interface SegmentedWindow {
  count: number;
  hits: SegmentHits;
  facets?: FacetCounts;
}

/** A query's matches in one segment. */
interface Part {
  s: number;
  engine: Engine;
  values: OrderValues;
  set: DocSet;
  size: number;
  matches: TermMatch[];
}

/** A matched document on its way into a merged window. */
interface Hit {
  s: number;
  d: number;
  values: OrderValues;
  score: number;
}

const engines = new WeakMap<IndexData, Engine>();

/** The engine of an index on this thread (one per index: it holds the index's scratch arrays). */
function engineOf(index: IndexData): Engine {
  let engine = engines.get(index);
  if (engine === undefined) engines.set(index, (engine = new Engine(index)));
  return engine;
}

/**
 * Answers list queries over a catalogue held as segments (a base index, delta indexes of the
 * writes since, and the documents of each that are no longer live), exactly as one index of
 * the live papers would: each segment's engine matches and filters, deleted documents are masked
 * out before anything is counted, and the segments' answers are merged:
 * - count and facets are sums (facets over each segment's uncut counts);
 * - an explicit ordering takes, from the segment with the most matches, only the ranks that can
 *   reach the window (see `mergedWindow`), and from the others their first `offset + limit`;
 *   runs merge by the papers' stored order values, which every segment's order follows;
 * - relevance scores with the live catalogue's statistics (`liveWeights`), so every score equals
 *   a fresh build's, then merges by score and the ties' order the same way;
 * - a cursor page seeks in each segment and merges the first `limit`.
 * A catalogue of one whole segment is answered by its engine directly.
 */
export class SegmentedEngine {
  readonly size: number;

  constructor(readonly segments: readonly Segment[]) {
    this.size = catalogueSize(segments);
  }

  /** The count, the window's documents and the facets, within `limits` (see `Engine.window`). */
  window(query: PaperQuery, limits: WorkLimits): SegmentedWindow {
    const only = this.segments.length === 1 && this.segments[0]!.live === null ? this.segments[0]! : null;
    if (only !== null) {
      const { count, docs, facets } = engineOf(only.index).window(query, limits);
      const hits = { segments: new Uint32Array(docs.length), docs };
      return facets === undefined ? { count, hits } : { count, hits, facets };
    }
    const used: Part[] = [];
    try {
      return withLimits(limits, () => this.answer(query, used));
    } catch (error) {
      for (const part of used) part.engine.reset();
      throw error;
    } finally {
      for (const part of used) part.values.forget();
    }
  }

  /** The newest live copy of the paper `id`, or `null`. */
  find(id: string): { s: number; d: number } | null {
    return findLive(this.segments, id);
  }

  /**
   * The facets over every segment: sums of each segment's uncut counts, except for the author
   * facet, which is never uncut (a name per few papers): its names are counted across segments
   * and cut once (see `authorFacetAcross`).
   */
  private facets(parts: readonly Part[], fields: readonly FacetField[], limit: number): FacetCounts {
    const summed = fields.filter((field) => !CUT_FACETS.has(field));
    const facets = sumFacets(
      parts.map((p) => facetCounts(p.engine.index, p.set, summed)),
      summed,
    );
    if (fields.includes('author')) facets.author = authorFacetAcross(parts.map((p) => ({ index: p.engine.index, set: p.set })), limit);
    return facets;
  }

  private answer(query: PaperQuery, parts: Part[]): SegmentedWindow {
    this.segments.forEach((segment, s) => {
      if (liveCount(segment) === 0) return;
      const engine = engineOf(segment.index);
      parts.push({ s, engine, values: orderValuesOf(segment.index), set: { kind: 'all', size: 0 }, size: 0, matches: [] });
      const { set, matches } = engine.matched(query, liveSet(segment));
      const part = parts.at(-1)!;
      part.set = set;
      part.size = setSize(set);
      part.matches = matches;
    });
    let count = 0;
    for (const part of parts) count += part.size;
    const fields = query.facets;
    const facets = fields === undefined || fields.length === 0 ? undefined : this.facets(parts, fields, query.facetLimit ?? MAX_FACET_LIMIT);
    const answer = (hits: Hit[]): SegmentedWindow => {
      const out: SegmentHits = { segments: new Uint32Array(hits.length), docs: new Uint32Array(hits.length) };
      hits.forEach((hit, i) => {
        out.segments[i] = hit.s;
        out.docs[i] = hit.d;
      });
      return facets === undefined ? { count, hits: out } : { count, hits: out, facets };
    };
    if (query.limit <= 0 || query.offset >= count) return answer([]);
    const matching = parts.filter((part) => part.size > 0);
    const { offset, limit } = query;
    const hitsOf = (part: Part, docs: Uint32Array, scores?: Float64Array): Hit[] =>
      Array.from(docs, (d, i) => ({ s: part.s, d, values: part.values, score: scores?.[i] ?? 0 }));
    if (query.ordering.kind === 'relevance') {
      const { then } = query.ordering;
      const weights = liveWeights(
        parts.map((part) => this.segments[part.s]!),
        parts.map((part) => part.matches.map((m) => m.set)),
        this.size,
      );
      if (!isSilent(weights)) {
        const tie = compareDocsBy(then);
        const before: Before<Hit> = (a, b) => a.score > b.score || (a.score === b.score && tie(a, b) < 0);
        return answer(this.merge(matching, count, offset, limit, before, (part, from, to) => ranked(part, query, then, from, to, weights, hitsOf)));
      }
      return answer(this.ordered(matching, count, offset, limit, then, hitsOf));
    }
    const { keys } = query.ordering;
    if (query.after !== undefined) {
      const after = query.after;
      const compare = compareDocsBy(keys);
      const lists = matching.map((part) => hitsOf(part, part.engine.seek(keys, after, part.set, limit)));
      return answer(mergeSorted(lists, (a, b) => compare(a, b) < 0, limit));
    }
    return answer(this.ordered(matching, count, offset, limit, keys, hitsOf));
  }

  private ordered(parts: Part[], count: number, offset: number, limit: number, keys: readonly OrderKey[], hitsOf: (part: Part, docs: Uint32Array) => Hit[]): Hit[] {
    const compare = compareDocsBy(keys);
    return this.merge(parts, count, offset, limit, (a, b) => compare(a, b) < 0, (part, from, to) => hitsOf(part, part.engine.ordered(keys, part.set, from, to)));
  }

  /** The window `[offset, offset + limit)` of the segments' runs merged (see `mergedWindow`). */
  private merge(parts: Part[], count: number, offset: number, limit: number, before: Before<Hit>, run: (part: Part, from: number, to: number) => Hit[]): Hit[] {
    const end = offset + limit;
    let large = parts[0]!;
    for (const part of parts) if (part.size > large.size) large = part;
    const others = count - large.size;
    const lists = parts.filter((part) => part !== large).map((part) => run(part, 0, Math.min(part.size, end)));
    const merged = mergeSorted(lists, before, end);
    const start = Math.max(0, offset - others);
    const items = run(large, start, Math.min(large.size, end));
    return mergedWindow({ items, start, total: large.size }, merged, offset, limit, before);
  }
}

function ranked(
  part: Part,
  query: PaperQuery,
  then: readonly OrderKey[],
  from: number,
  to: number,
  weights: RelevanceWeights,
  hitsOf: (part: Part, docs: Uint32Array, scores?: Float64Array) => Hit[],
): Hit[] {
  const { docs, scores } = part.engine.ranked(part.set, query.terms, part.matches, then, from, to, weights);
  return hitsOf(part, docs, scores);
}
