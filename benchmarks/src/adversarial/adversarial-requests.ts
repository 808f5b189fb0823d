import { textWords, type Paper } from '@paperlist/core';
import { seededRandom } from '../random.js';

/** One adversarial request: its query string (under `{mount}/papers/?`) and its class. */
export interface AdversarialRequest {
  cls: string;
  query: string;
}

/**
 * The request classes issue 16 names as unbounded before the bounded-work engine: substring
 * filters of every shape, broad prefixes, stop-word phrases, many terms, relevance over huge
 * match sets, filters combined with these, deep pages of 500.
 */
export const FIXED_ADVERSARIAL: readonly AdversarialRequest[] = [
  { cls: 'substring', query: 'abstract=a&title=e&ordering=-published&items_per_page=500&page=last' },
  { cls: 'substring', query: 'abstract=tion+of+the' },
  { cls: 'substring', query: 'abstract=zzzzzzzqqq' },
  { cls: 'substring', query: 'abstract=+of+the+' },
  { cls: 'substring', query: 'abstract=th' },
  { cls: 'substring', query: 'abstract=e.g.' },
  { cls: 'substring', query: 'abstract=state-of-the-art' },
  { cls: 'substring', query: 'abstract=%2C+' },
  { cls: 'substring', query: 'title=%3A+a' },
  { cls: 'substring', query: 'title=e' },
  { cls: 'substring', query: 'title=na%C3%AFve' },
  // One or two letters at a word's edge: every word ending in `e` (or starting with `t`) is in
  // play, tens of millions of occurrences (seen in the abuse scenario's own random set, seed 99).
  { cls: 'short needle at a word edge', query: 'abstract=e%20&ordering=-title' },
  { cls: 'short needle at a word edge', query: 'abstract=s%20' },
  { cls: 'short needle at a word edge', query: 'abstract=%20t' },
  { cls: 'short needle at a word edge', query: 'abstract=ed%20' },
  { cls: 'short needle at a word edge', query: 'title=e%20' },
  { cls: 'short needle at a word edge', query: 'title=in&ordering=-published' },
  { cls: 'short needle at a word edge', query: 'abstract=TI' },
  { cls: 'short needle at a word edge', query: 'abstract=e%2C' },
  { cls: 'short needle at a word edge', query: 'abstract=-b' },
  { cls: 'short needle at a word edge', query: 'abstract=s.' },
  { cls: 'short needle at a word edge', query: 'abstract=y%29' },
  { cls: 'short needle at a word edge', query: 'abstract=%2C+a' },
  { cls: 'short needle at a word edge', query: 'abstract=e%20t' },
  { cls: 'broad prefix', query: 'q=a' },
  { cls: 'broad prefix', query: 'q=co' },
  { cls: 'broad prefix', query: 'q=co&ordering=title&page=3' },
  { cls: 'stop-word phrase', query: 'q=%22of+the%22' },
  { cls: 'stop-word phrase', query: 'q=%22the+of+a%22' },
  { cls: 'stop-word phrase', query: 'q=%22of+the%22+%22in+a%22+%22to+the%22' },
  { cls: 'many terms', query: 'q=a+b+c+d+e+f+g+h' },
  { cls: 'many terms', query: 'q=the+of+and+a+in+to+is+for' },
  { cls: 'filters with q', query: 'q=learning&abstract=the' },
  { cls: 'filters with q', query: 'q=network&title=a&ordering=-published' },
  { cls: 'deep page of 500', query: 'q=a&ordering=title&items_per_page=500&page=500' },
  { cls: 'deep page of 500', query: 'ordering=-published&items_per_page=500&page=900' },
  // Issue 19's filters at their widest: one-letter author prefixes (alone, as 26 alternatives,
  // with other words), open date ranges over nearly every paper with deep pages, many venues.
  { cls: 'date, author, venue filters', query: 'author=a' },
  { cls: 'date, author, venue filters', query: 'author=j+m&ordering=-published' },
  { cls: 'date, author, venue filters', query: `author=${[...'abcdefghijklmnopqrstuvwxyz'].join('%7C')}&ordering=title` },
  { cls: 'date, author, venue filters', query: 'year=1990-&ordering=-published&items_per_page=500&page=last' },
  { cls: 'date, author, venue filters', query: 'published_after=2000&published_before=2021-06&abstract=the&ordering=title&page=300' },
  { cls: 'date, author, venue filters', query: 'venue=acl%7Cemnlp%7Cnaacl%7Ccoling%7Cws&q=a' },
  { cls: 'date, author, venue filters', query: 'year=2000-&author=a&venue=ws&q=the&ordering=-arxiv_id' },
];

const STOP_WORDS = ['the', 'of', 'a', 'in', 'to', 'and', 'is', 'for', 'on', 'with', 'we', 'that', 'by', 'this', 'as', 'are'];
const ORDERINGS = ['', '-published', 'title', 'published', '-title', 'id'];

/**
 * `count` distinct adversarial requests drawn with a fixed seed from the same classes: needles cut
 * from real titles and abstracts (any length, across words and punctuation), one- and
 * two-character prefixes, phrases and runs of stop words, long term lists, filters with `q`,
 * every ordering, deep pages. (The filters of issue 19 are among the fixed requests only, so
 * the random set stays the one earlier runs measured.)
 */
export function randomAdversarial(papers: readonly Paper[], count: number, seed = 16): AdversarialRequest[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (max: number) => Math.floor(random() * max);
  const seen = new Set<string>();
  const out: AdversarialRequest[] = [];
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const ordering = () => {
    const o = pick(ORDERINGS);
    return o === '' ? '' : `&ordering=${o}`;
  };
  const makers: [string, () => string][] = [
    [
      'substring',
      () => {
        const paper = pick(papers);
        const field = random() < 0.5 ? 'title' : 'abstract';
        const text = paper[field];
        if (text.length === 0) return '';
        const from = int(text.length);
        return `${field}=${encodeURIComponent(text.slice(from, from + 1 + int(12)))}${ordering()}`;
      },
    ],
    ['broad prefix', () => `q=${pick([...letters])}${random() < 0.5 ? pick([...letters]) : ''}${ordering()}`],
    ['stop-word phrase', () => `q=${encodeURIComponent(`"${Array.from({ length: 2 + int(2) }, () => pick(STOP_WORDS)).join(' ')}"`)}${ordering()}`],
    ['many terms', () => `q=${Array.from({ length: 8 + int(8) }, () => (random() < 0.5 ? pick(STOP_WORDS) : pick([...letters]))).join('+')}${ordering()}`],
    [
      'filters with q',
      () => {
        const words = textWords(pick(papers).title).filter((w) => w.length > 3);
        if (words.length === 0) return '';
        return `q=${pick(words)}&abstract=${encodeURIComponent(pick(STOP_WORDS))}${ordering()}`;
      },
    ],
    ['deep page of 500', () => `q=${pick([...letters])}${ordering() || '&ordering=title'}&items_per_page=500&page=${1 + int(300)}`],
  ];
  for (let guard = 0; out.length < count && guard < count * 20; guard++) {
    const [cls, make] = pick(makers);
    const query = make();
    if (query === '' || seen.has(query)) continue;
    seen.add(query);
    out.push({ cls, query });
  }
  return out;
}
