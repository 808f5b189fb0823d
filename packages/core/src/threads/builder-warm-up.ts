/**
 * The builds a delta or merge thread makes as soon as it starts (see `DeltaBuilder.start`,
 * `MergeThreads.start`), before any write or merge reaches it. The first builds of a thread run
 * the builder's unoptimized code: measured, a thread's first half-dozen builds of 1,000 papers
 * took 3 to 5 times as long as its later ones, and a benchmark's (or a server's) first writes
 * are exactly those. Papers of the catalogue itself (read from the base's shared memory, on the
 * thread) give V8 the words, lengths and field shapes of real writes; a round of made-up papers
 * covers what a sample may lack (non-ASCII words, empty fields).
 */
import { indexFromParts, type IndexParts } from '../engine/index-parts.js';
import { IndexBuilder } from '../engine/builder.js';
import { estimateJsonBytes } from '../engine/paper-store.js';
import type { Paper } from '../paper.js';

/** How a building thread warms up: the catalogue to take papers from, and how many builds of how many papers. */
export interface BuilderWarmUp {
  /** The base index's parts (shared memory, nothing copied), or `null` for made-up papers only. */
  readonly from: IndexParts | null;
  readonly rounds: number;
  readonly papers: number;
  /**
   * Set (to 1, by the owner) when a write's batch is waiting: the warm-up stops after the build
   * under way, so a write arriving just after a start waits for one small build, not all of them.
   */
  readonly stop: Int32Array;
  /**
   * Build as a merge thread does: every table, from papers decoded on the thread (a merge reads
   * its segments' papers from shared memory). Otherwise as a delta thread does: without the
   * deferred tables, from papers that came through a structured clone, as a write's do.
   */
  readonly merges?: boolean;
}

/** Papers in each build a delta or merge thread makes when it starts. */
export const WARM_UP_PAPERS = 300;

/**
 * How many warm-up builds a delta or merge thread makes for a base of `n` papers: one per 1,000 papers,
 * 10 to 30. More builds make the first writes faster: at 1M papers, batches of 1,000 upserts
 * were visible after a median of 80–83 ms with 10 builds, 61–65 ms with 30 (two runs each of 14
 * batches; the later builds are still optimized further by V8). Thirty take a thread about
 * 1.3 s of background CPU, nothing beside the seconds a large catalogue takes to load, but a
 * small catalogue is loaded in milliseconds, often many times over (tests, demos), and gets 10.
 */
export function warmUpRounds(n: number): number {
  return Math.min(30, Math.max(10, Math.floor(n / 1000)));
}

/** Builds the warm-up's indexes, and drops them, until told to stop. */
export function warmUpBuilds({ from, rounds, papers, stop, merges = false }: BuilderWarmUp): void {
  const base = from === null ? null : indexFromParts(from);
  for (let round = 0; round < rounds && Atomics.load(stop, 0) === 0; round++) {
    let batch: Paper[];
    // The first round, and every round when the catalogue is too small to sample, is made up.
    if (base === null || base.n < papers || round === 0) {
      batch = madeUpPapers(round, papers);
    } else {
      // Documents spread over the whole base, a different run each round.
      const stride = Math.max(1, Math.floor(base.n / (papers * rounds)));
      batch = [];
      for (let i = 0; i < papers; i++) {
        const d = ((round * papers + i) * stride) % base.n;
        // A merge's papers are the store's own objects; a write's are respread with their ids.
        batch.push(merges ? base.store.paper(d) : { ...base.store.paper(d), id: `paperlist-warm-up-${round}-${i}` });
      }
    }
    // As the thread's builds are made: sized for the batch; a delta without the deferred tables.
    const builder = new IndexBuilder(estimateJsonBytes(batch), true, !merges);
    // A write's papers come through a structured clone: objects (and strings) made here have other
    // shapes than those, and code optimized on them ran the writes' builds about 40% slower for as
    // long as the thread lived (measured: adding 500 papers took 30 ms after such a warm-up, 21 ms
    // after none). A merge's are made here, so they are not cloned.
    for (const paper of merges ? batch : structuredClone(batch)) builder.add(paper);
    builder.finish();
  }
}

const WORDS = ['learning', 'neural', 'Network', 'graph', 'über', 'Ämter', 'model', 'GPT-4', 'of', 'the', 'a', 'Transformers', '1706.03762', 'łódź', 'deep', 'x'];

/** Made-up papers: varied words, ASCII and not, every field filled or null. */
export function madeUpPapers(round: number, count: number): Paper[] {
  const word = (i: number) => WORDS[i % WORDS.length]!;
  const separator = (i: number) => (i % 3 === 0 ? ', ' : ' ');
  const text = (i: number, words: number) => Array.from({ length: words }, (_, k) => `${word(i * 7 + k * 3)}${(i + k) % 5 === 0 ? i : ''}`).join(separator(i));
  return Array.from({ length: count }, (_, i): Paper => ({
    id: `paperlist-warm-up-${round}-${i}`,
    arxiv_id: i % 4 === 0 ? null : `2001.${String(i).padStart(5, '0')}`,
    nips_id: null,
    url_abs: `https://example.org/${i}`,
    url_pdf: `https://example.org/${i}.pdf`,
    title: text(i, 3 + (i % 9)),
    abstract: text(i + 1, 40 + (i % 120)),
    authors: Array.from({ length: i % 5 }, (_, a) => `${word(i + a)} ${word(i * a + 2)}`),
    published: i % 6 === 0 ? null : `20${String(10 + (i % 15))}-0${1 + (i % 9)}-1${i % 10}`,
    conference: null,
    conference_url_abs: null,
    conference_url_pdf: null,
    proceeding: i % 2 === 0 ? null : `NeurIPS 20${10 + (i % 15)}`,
  }));
}
