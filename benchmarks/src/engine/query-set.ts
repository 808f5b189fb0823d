import { textWords, type Paper } from '@paperlist/core';
import { loadSamplePapers } from '@paperlist/core/sample';
import { seededRandom } from '../random.js';

/** One request of the benchmark: a search of a class, an ordering, a page. */
export interface BenchQuery {
  /** Query class (common term, rare term, …). */
  cls: string;
  /** The `q` value. */
  q: string;
  /** `ordering` value; '' is the default (relevance, since there is a search). */
  ordering: string;
  offset: number;
  limit: number;
}

export const QUERY_CLASSES = ['common term', 'rare term', '2-3 term AND', 'short prefix', 'phrase', 'author'] as const;
export const ORDERINGS = ['', '-published', 'title'] as const;
export const PAGE_SIZE = 50;
/** The deep page: offset 1000 (page 21), as in the PostgreSQL benchmark. */
export const DEEP_OFFSET = 1000;
const SEED = 20261123;
const PER_CLASS = 5;

/** The first query of each class, shared with the PostgreSQL benchmark. */
const FIXED: Record<(typeof QUERY_CLASSES)[number], string> = {
  'common term': 'learning',
  'rare term': 'lstm',
  '2-3 term AND': 'graph neural network',
  'short prefix': 'tra',
  phrase: '"neural machine translation"',
  author: 'bengio',
};

/**
 * The fixed, seeded query set: per class the shared query plus four drawn with a fixed seed from
 * the shipped 4,000-paper sample (word frequencies there stand for the catalogue's), each with
 * the default order (relevance), `-published` and `title`, at page 1 and at offset 1000.
 */
export async function benchQueries(): Promise<BenchQuery[]> {
  const searches = await searchesByClass();
  const queries: BenchQuery[] = [];
  for (const cls of QUERY_CLASSES) {
    for (const q of searches[cls]) {
      for (const ordering of ORDERINGS) {
        for (const offset of [0, DEEP_OFFSET]) queries.push({ cls, q, ordering, offset, limit: PAGE_SIZE });
      }
    }
  }
  return queries;
}

/** The searches of each class. */
export async function searchesByClass(): Promise<Record<(typeof QUERY_CLASSES)[number], string[]>> {
  const papers = await loadSamplePapers();
  const random = seededRandom(SEED);
  const n = papers.length;
  const df = new Map<string, number>();
  for (const p of papers) for (const w of new Set([...textWords(p.title), ...textWords(p.abstract)])) df.set(w, (df.get(w) ?? 0) + 1);
  const alphabetic = (w: string) => /^[a-z]{4,}$/.test(w);
  const byDf = (lo: number, hi: number) => [...df].filter(([w, d]) => alphabetic(w) && d >= lo * n && d <= hi * n).map(([w]) => w).sort();
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const draw = (make: () => string | null, count: number, taken: string[]) => {
    for (let guard = 0; taken.length < count && guard < 10_000; guard++) {
      const q = make();
      if (q !== null && !taken.includes(q)) taken.push(q);
    }
    return taken;
  };
  const common = byDf(0.03, 0.12);
  const rare = byDf(2 / n, 8 / n);
  const content = byDf(0.002, 0.05);
  const titleWords = (p: Paper) => textWords(p.title).filter((w) => content.includes(w));
  const authorCounts = new Map<string, number>();
  for (const p of papers) for (const a of p.authors) {
    const last = textWords(a).at(-1);
    if (last && last.length >= 4) authorCounts.set(last, (authorCounts.get(last) ?? 0) + 1);
  }
  const authors = [...authorCounts].filter(([, c]) => c >= 3).map(([a]) => a).sort();
  return {
    'common term': draw(() => pick(common), PER_CLASS, [FIXED['common term']]),
    'rare term': draw(() => pick(rare), PER_CLASS, [FIXED['rare term']]),
    '2-3 term AND': draw(() => {
      const words = [...new Set(titleWords(pick(papers)))];
      if (words.length < 2) return null;
      const count = words.length >= 3 && random() < 0.5 ? 3 : 2;
      const start = Math.floor(random() * (words.length - count + 1));
      return words.slice(start, start + count).join(' ');
    }, PER_CLASS, [FIXED['2-3 term AND']]),
    'short prefix': draw(() => pick(common).slice(0, 3), PER_CLASS, [FIXED['short prefix']]),
    phrase: draw(() => {
      const words = textWords(pick(papers).title);
      for (let i = 0; i + 1 < words.length; i++) {
        if (content.includes(words[i]!) && content.includes(words[i + 1]!) && random() < 0.5) return `"${words[i]} ${words[i + 1]}"`;
      }
      return null;
    }, PER_CLASS, [FIXED.phrase]),
    author: draw(() => pick(authors), PER_CLASS, [FIXED.author]),
  };
}

/** The query string of a benchmark query (as a client sends it). */
export function queryString(query: BenchQuery): string {
  const pairs = [`q=${encodeURIComponent(query.q)}`];
  if (query.ordering) pairs.push(`ordering=${query.ordering}`);
  return pairs.join('&');
}
