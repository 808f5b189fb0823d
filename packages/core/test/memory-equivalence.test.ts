import { queryFor } from '@paperlist/conformance';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareCodePoints, createMemorySource, createScanSource, positionOf, textWords, toPaper, type FacetBucket, type FacetField, type Paper, type PaperSource } from '../src/index.js';
import { venueKey } from '../src/filters/venue-key.js';
import { loadSamplePapers } from '../src/sample.js';

/**
 * The engine against the naive scan on the 4,000-paper sample: seeded random searches
 * (words, prefixes, phrases, punctuated terms, arXiv ids, accents), filters, every ordering
 * including multi-field ones and relevance, and windows from the first page to past the end.
 * Each random request asks the scan once for its whole ordered answer, then several windows
 * of the engine are compared with slices of it.
 */
describe('memory engine = scan reference on random queries', () => {
  let papers: Paper[];
  let engine: PaperSource;
  let reference: PaperSource;
  beforeAll(async () => {
    papers = await loadSamplePapers();
    engine = createMemorySource(papers);
    reference = createScanSource(papers);
  });

  // Both record shapes carry the id; no need to decode the JSON.
  const ids = (results: { id: string }[]) => results.map((r) => r.id);

  async function check(raw: string, windows: (count: number) => [number, number][]): Promise<number> {
    const want = await reference.list(queryFor(raw, 0, 1e9));
    const wantIds = ids(want.results);
    let checked = 0;
    for (const [offset, limit] of windows(want.count)) {
      const got = await engine.list(queryFor(raw, offset, limit));
      expect(got.count, `count of ${raw}`).toBe(want.count);
      expect(ids(got.results), `${raw} [${offset}, +${limit}]`).toEqual(wantIds.slice(offset, offset + limit));
      checked++;
    }
    return checked;
  }

  function generator(seed: number) {
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const chance = (p: number) => random() < p;
    const int = (max: number) => Math.floor(random() * max);
    const authors = papers.flatMap((p) => p.authors).filter((a) => a.length > 0);
    const fields = (p: Paper) => [p.title, p.abstract, ...p.authors].filter((f) => f.length > 0);
    const word = () => {
      const words = textWords(pick(fields(pick(papers))));
      return words.length > 0 ? pick(words) : 'model';
    };
    const rawToken = () => {
      const tokens = pick(papers).title.split(/\s+/).filter((t) => t.length > 0);
      return tokens.length > 0 ? pick(tokens) : 'x';
    };
    const phrase = () => {
      const words = textWords(pick(fields(pick(papers))));
      if (words.length < 2) return word();
      const length = 2 + int(Math.min(3, words.length - 1));
      const start = int(words.length - length + 1);
      const chosen = words.slice(start, start + length);
      if (chance(0.3)) chosen[chosen.length - 1] = chosen.at(-1)!.slice(0, 1 + int(chosen.at(-1)!.length));
      return chosen;
    };
    const term = (): string => {
      const kind = random();
      if (kind < 0.25) return word();
      if (kind < 0.4) return word().slice(0, 1 + int(4));
      if (kind < 0.55) return `"${(phrase() as string[] | string).toString().replaceAll(',', ' ')}"`;
      if (kind < 0.65) return rawToken().replaceAll('"', '');
      if (kind < 0.72) return [word(), word()].join(pick(['-', '.', '/', '_']));
      if (kind < 0.8) {
        const withId = papers.filter((p) => p.arxiv_id !== null);
        const id = pick(withId).arxiv_id!;
        return chance(0.3) ? `${id}v${1 + int(4)}` : chance(0.2) ? id.toUpperCase() : id;
      }
      if (kind < 0.86) return pick(authors).split(' ').at(-1)!;
      if (kind < 0.9) return `"${pick(authors)}"`;
      if (kind < 0.94) return word().toUpperCase();
      if (kind < 0.97) return pick(['zzqx', 'qwertyuiop', 'łukasz', 'Schrödinger', 'naïve', 'ﬁne', 'İstanbul', '日本', '---']);
      return pick(['a', 'the', 'of', 'learning', 'model', 'network']);
    };
    const ordering = () => {
      const all = ['published', 'arxiv_id', 'title', 'id'];
      const count = 1 + int(chance(0.7) ? 1 : 3);
      const chosen: string[] = [];
      while (chosen.length < count) {
        const field = pick(all);
        if (!chosen.some((c) => c.endsWith(field))) chosen.push((chance(0.5) ? '-' : '') + field);
      }
      return chosen.join(',');
    };
    // The extension filters: date ranges of every shape, author words, proceedings and venues.
    const dated = papers.filter((p) => p.published !== null);
    const withProceeding = papers.filter((p) => p.proceeding !== null);
    const partialDate = () => {
      const day = pick(dated).published!;
      return day.slice(0, pick([4, 7, 10, 10]));
    };
    const year = () => Number(pick(dated).published!.slice(0, 4));
    const names = papers.flatMap((p) => p.authors);
    const authorQuery = () => {
      const one = () => {
        const words = textWords(pick(names));
        if (words.length === 0) return 'zz';
        const chosen = words.filter(() => chance(0.6));
        if (chosen.length === 0) chosen.push(pick(words));
        if (chance(0.3)) chosen.reverse();
        if (chance(0.4)) chosen[chosen.length - 1] = chosen.at(-1)!.slice(0, 1 + int(4));
        return chance(0.2) ? chosen.join(' ').toUpperCase() : chosen.join(' ');
      };
      if (chance(0.05)) return pick(['a', 'j', 'zzqx', 'łukasz', 'Müller']);
      return chance(0.2) ? `${one()}|${one()}` : one();
    };
    const extensionFilters = (): string[] => {
      const parts: string[] = [];
      if (chance(0.1)) parts.push(`published_after=${partialDate()}`);
      if (chance(0.1)) parts.push(`published_before=${partialDate()}`);
      if (chance(0.08)) {
        const [a, b] = [year(), year()].sort();
        parts.push(`year=${pick([`${a}`, `${a}-${b}`, `${a}-`, `-${b}`])}`);
      }
      if (chance(0.15)) parts.push(`author=${encodeURIComponent(authorQuery())}`);
      if (chance(0.06)) {
        const values = Array.from({ length: 1 + int(3) }, () => (chance(0.1) ? pick(names).toLowerCase() : pick(names)));
        parts.push(`author_name=${encodeURIComponent(values.join('|'))}`);
      }
      if (chance(0.06)) {
        const values = [pick(withProceeding).proceeding!, ...(chance(0.3) ? [pick(withProceeding).proceeding!] : [])];
        parts.push(`proceeding=${encodeURIComponent(values.join('|'))}`);
      }
      if (chance(0.08)) {
        const key = venueKey(pick(withProceeding).proceeding)!;
        const value = chance(0.1) ? 'nips' : chance(0.3) ? key.toUpperCase() : key;
        parts.push(`venue=${encodeURIComponent(chance(0.2) ? `${value}|ws` : value)}`);
      }
      // Batch lookups: a few ids or arXiv ids, some absent.
      if (chance(0.04)) parts.push(`id=${encodeURIComponent(Array.from({ length: 1 + int(6) }, () => (chance(0.1) ? 'absent' : pick(papers).id)).join('|'))}`);
      if (chance(0.04)) {
        const withId = papers.filter((p) => p.arxiv_id !== null);
        parts.push(`arxiv_id=${encodeURIComponent(Array.from({ length: 2 + int(5) }, () => pick(withId).arxiv_id!).join('|'))}`);
      }
      return parts;
    };
    const substring = (text: string) => {
      if (text.length === 0) return 'a';
      const start = int(text.length);
      const piece = text.slice(start, start + 1 + int(8));
      return chance(0.3) ? piece.toUpperCase() : piece;
    };
    return (): string => {
      const parts: string[] = [];
      const termCount = pick([0, 1, 1, 1, 2, 2, 3]);
      if (termCount > 0 || chance(0.05)) {
        const terms = Array.from({ length: termCount }, term);
        parts.push(`q=${encodeURIComponent(terms.join(pick([' ', ' ', ','])))}`);
      }
      if (chance(0.6)) parts.push(`ordering=${ordering()}`);
      if (chance(0.12)) parts.push(`title=${encodeURIComponent(substring(pick(papers).title))}`);
      if (chance(0.08)) parts.push(`abstract=${encodeURIComponent(substring(pick(papers).abstract))}`);
      if (chance(0.06)) {
        const withId = papers.filter((p) => p.arxiv_id !== null);
        parts.push(`arxiv_id=${encodeURIComponent(chance(0.8) ? pick(withId).arxiv_id! : '1234.5678')}`);
      }
      parts.push(...extensionFilters());
      return parts.join('&');
    };
  }

  function windowsFor(seed: number) {
    const random = seededRandom(seed);
    const int = (max: number) => Math.floor(random() * max);
    return (count: number): [number, number][] => [
      [0, 50],
      [int(count + 1), 1 + int(100)],
      [Math.max(0, count - 1 - int(60)), 1 + int(80)],
      [int(count + 1), 0],
      [count + int(10), 20],
      ...(random() < 0.15 ? [[int(count + 1), 500] as [number, number]] : []),
    ];
  }

  it('agrees on 700 random requests, several windows each', async () => {
    const next = generator(7);
    const windows = windowsFor(11);
    let checked = 0;
    for (let i = 0; i < 700; i++) checked += await check(next(), windows);
    expect(checked).toBeGreaterThan(3000);
    // A few seconds alone; minutes when the full suites of several worktrees share two cores.
  }, 180_000);

  it('agrees on 300 random cursor positions: stored papers, gone ones, past the end', async () => {
    const next = generator(23);
    const random = seededRandom(29);
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const raw = next();
      const query = queryFor(raw, 0, 1e9);
      if (query.ordering.kind !== 'fields') continue;
      const { keys } = query.ordering;
      const want = await reference.list(query);
      // A position: of a matching paper, of any paper (maybe not matching), or of one that is not there.
      const from = random() < 0.5 && want.results.length > 0 ? want.results[Math.floor(random() * want.results.length)]! : papers[Math.floor(random() * papers.length)]!;
      const paper = toPaper(from);
      const position = positionOf(random() < 0.2 ? { ...paper, id: `${paper.id}-gone` } : paper, keys);
      const limit = 1 + Math.floor(random() * 60);
      const [got, expected] = await Promise.all([engine.list({ ...queryFor(raw, 0, limit), after: position }), reference.list({ ...queryFor(raw, 0, limit), after: position })]);
      expect(got.count, raw).toBe(want.count);
      expect(ids(got.results), `${raw} after ${JSON.stringify(position.values)}`).toEqual(ids(expected.results));
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  }, 120_000);

  it('agrees on the facets of 200 random requests', async () => {
    const next = generator(31);
    const best = (buckets: FacetBucket[] | undefined, limit: number) => {
      const values = (buckets ?? []).filter((b) => b.value !== null && b.count > 0);
      values.sort((a, b) => b.count - a.count || compareCodePoints(a.value!, b.value!));
      return [...values.slice(0, limit).map((b) => `${b.value}:${b.count}`), `null:${(buckets ?? []).find((b) => b.value === null)?.count ?? 0}`];
    };
    const sorted = (buckets: FacetBucket[] | undefined) => (buckets ?? []).filter((b) => b.value !== null || b.count > 0).map((b) => `${b.value}:${b.count}`).sort();
    for (let i = 0; i < 200; i++) {
      const raw = next();
      const query = { ...queryFor(raw, 0, 3), facets: ['year', 'venue', 'proceeding'] as FacetField[] };
      const [got, want] = await Promise.all([engine.list(query), reference.list(query)]);
      expect(got.count, raw).toBe(want.count);
      for (const field of ['year', 'venue', 'proceeding'] as const) expect(sorted(got.facets?.[field]), `${raw} ${field}`).toEqual(sorted(want.facets?.[field]));
      // Authors: the engine answers only the best `facetLimit` names (and the null bucket).
      const facetLimit = [1, 2, 10, 1000][i % 4]!;
      const authorQuery = { ...query, facets: ['author'] as FacetField[], facetLimit };
      const [gotAuthors, wantAuthors] = await Promise.all([engine.list(authorQuery), reference.list(authorQuery)]);
      expect(best(gotAuthors.facets?.author, facetLimit), `${raw} author ${facetLimit}`).toEqual(best(wantAuthors.facets?.author, facetLimit));
    }
  }, 120_000);

  it('agrees on the extension filters alone and combined, every ordering, deep pages', async () => {
    const filters = [
      'year=2018',
      'year=-2015',
      'year=2019-',
      'published_after=2017-06&published_before=2018',
      'published_before=2010-02',
      'author=neubig',
      'author=g+neubig',
      'author=graham|dyer',
      'author=kaiser+l',
      'venue=acl',
      'venue=ACL|emnlp',
      'proceeding=acl-2020-7|naacl-2019-6',
      'venue=ws&year=2015-2019&author=a',
    ];
    const windows = windowsFor(17);
    for (const filter of filters) {
      for (const rest of ['', 'q=learning', 'q=model&ordering=-published', 'ordering=title', 'ordering=-arxiv_id,title', 'ordering=-id', 'title=the', 'ordering=published&abstract=we']) {
        await check([filter, rest].filter(Boolean).join('&'), windows);
      }
    }
  });

  it('agrees on every single ordering and direction, with and without a search', async () => {
    const orderings = ['', 'title', '-title', 'published', '-published', 'arxiv_id', '-arxiv_id', 'id', '-id'];
    const windows = windowsFor(5);
    for (const ordering of orderings) {
      for (const q of ['', 'learning', 'neural net', '"neural network"', 'tra', 'bert', 'gpt-4']) {
        const parts = [q && `q=${encodeURIComponent(q)}`, ordering && `ordering=${ordering}`].filter(Boolean);
        await check(parts.join('&'), windows);
      }
    }
  });
});

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
