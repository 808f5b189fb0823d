import { textWords, type Paper } from '@paperlist/core';
import { seededRandom } from '../random.js';

const ORDERINGS = ['', '-published', 'title', 'published', '-title', 'arxiv_id', 'id'];

/**
 * `count` distinct searches of one to three words, as people type them: consecutive words of
 * real titles (the sample's), in every ordering (relevance included). Pages are chosen later,
 * against the catalogue, among the pages that exist (1 to 3).
 */
export function distinctSearches(papers: readonly Paper[], count: number, seed: number): { q: string; ordering: string }[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const seen = new Set<string>();
  const out: { q: string; ordering: string }[] = [];
  for (let guard = 0; out.length < count && guard < count * 20; guard++) {
    const words = textWords(pick(papers).title).filter((w) => w.length > 2);
    if (words.length === 0) continue;
    const length = 1 + Math.floor(random() * Math.min(3, words.length));
    const from = Math.floor(random() * (words.length - length + 1));
    const q = words.slice(from, from + length).join(' ');
    const ordering = pick(ORDERINGS);
    const key = `${q}|${ordering}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ q, ordering });
  }
  return out;
}

/** The path of a search at a page. */
export function searchPath(q: string, ordering: string, page: number): string {
  const pairs = [`q=${encodeURIComponent(q).replace(/%20/g, '+')}`];
  if (ordering) pairs.push(`ordering=${ordering}`);
  if (page > 1) pairs.push(`page=${page}`);
  return `/api/v1/papers/?${pairs.join('&')}`;
}

/**
 * The database benchmarks' mix (`sql-mode`, `memory-mode`): distinct searches of 1–3 title words
 * in every ordering, pages 1–3 (a page past the end is a 404, counted apart), and one request in
 * ten a `title=` or `abstract=` filter of 4–7 letters of a title word.
 */
export function databaseMix(papers: readonly Paper[], count: number): string[] {
  const random = seededRandom(2027);
  const paths: string[] = [];
  for (const { q, ordering } of distinctSearches(papers, count, 1126)) {
    const page = 1 + Math.floor(random() * random() * 3);
    if (random() < 0.1) {
      const words = textWords(papers[Math.floor(random() * papers.length)]!.title).filter((w) => w.length > 3);
      const word = words[Math.floor(random() * words.length)];
      if (word !== undefined) {
        const field = random() < 0.5 ? 'title' : 'abstract';
        paths.push(`/api/v1/papers/?${field}=${encodeURIComponent(word.slice(0, 4 + Math.floor(random() * 4)))}${ordering ? `&ordering=${ordering}` : ''}`);
        continue;
      }
    }
    paths.push(searchPath(q, ordering, page));
  }
  return paths;
}
