import { describe, expect, it } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import type { Paper } from '../paper.js';
import type { QueryPair } from '../query/query-string.js';
import { escapeHtml, safeExternalUrl } from './escape-html.js';
import { ORDERING_CHOICES } from './ordering-choices.js';
import { renderErrorPage } from './render-error-page.js';
import { renderListPage, type ListPageView } from './render-list-page.js';
import { renderPaperPage } from './render-paper-page.js';
import { listAuthors, snippet } from './render-paper-summary.js';

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '</textarea></title></style><script>alert(1)</script>',
  '&lt;already escaped&gt; & <b>bold</b>',
  'LaTeX $\\mathcal{O}(n^2) < 2^{n}$ & "quotes" \'single\'',
  '{{constructor.constructor("alert(1)")()}}',
  '\u2028\u2029<!-- --> <![CDATA[ x ]]>',
];

// Characters that make markup: an injection would change how many of them the page has.
function markupShape(html: string): Record<string, number> {
  return { '<': count(html, '<'), '>': count(html, '>'), '"': count(html, '"'), "'": count(html, "'") };
}
function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

function listView(paper: Paper, pairs: readonly QueryPair[]): ListPageView {
  return {
    links: { origin: 'http://h', path: '/api/papers/', pairs },
    count: 120,
    page: 2,
    lastPage: 3,
    pageSize: 50,
    maxPageSize: 500,
    papers: [paper],
  };
}

function hostilePaper(text: string): Paper {
  return makePaper({
    id: `id-${text}`,
    title: text,
    abstract: text,
    authors: [text, text],
    arxiv_id: text,
    nips_id: text,
    published: '2020-01-01',
    conference: text,
    proceeding: text,
  });
}

const benign = makePaper({
  id: 'id-x',
  title: 'x',
  abstract: 'x',
  authors: ['x', 'x'],
  arxiv_id: 'x',
  nips_id: 'x',
  published: '2020-01-01',
  conference: 'x',
  proceeding: 'x',
});

describe('escapeHtml', () => {
  it.each([
    ['<script>', '&lt;script&gt;'],
    ['a & b', 'a &amp; b'],
    ['"x"', '&quot;x&quot;'],
    ["'x'", '&#39;x&#39;'],
    ['&amp;', '&amp;amp;'],
    ['plain ü ∑ 🧪', 'plain ü ∑ 🧪'],
  ])('%s', (input, output) => {
    expect(escapeHtml(input)).toBe(output);
  });
});

describe('safeExternalUrl', () => {
  it.each([
    ['https://arxiv.org/abs/1706.03762', 'https://arxiv.org/abs/1706.03762'],
    ['http://example.org/a b', 'http://example.org/a%20b'],
    ['https://x.org/"onmouseover="alert(1)', 'https://x.org/%22onmouseover=%22alert(1)'],
    ['  https://x.org/  ', 'https://x.org/'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    [' javascript:alert(1)', null],
    ['java\tscript:alert(1)', null],
    ['java\nscript:alert(1)', null],
    ['\u0000javascript:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['vbscript:msgbox(1)', null],
    ['//evil.example/x', null],
    ['/relative/path', null],
    ['ftp://files.example/x.pdf', null],
    ['', null],
    [null, null],
  ])('%j', (input, output) => {
    expect(safeExternalUrl(input)).toBe(output);
  });
});

describe('renderListPage', () => {
  const benignShape = markupShape(renderListPage(listView(benign, [['q', 'x'], ['ordering', 'x'], ['xtra', 'x']])));

  it.each(HOSTILE)('escapes every field of a paper and the query: %s', (text) => {
    const html = renderListPage(listView(hostilePaper(text), [['q', text], ['ordering', text], [text, text]]));
    expect(markupShape(html)).toEqual(benignShape);
    expect(html).not.toContain(text);
    expect(html).not.toMatch(/<(script|img|svg)/i);
  });

  it.each(['javascript:alert(1)', 'data:text/html,<b>', ' JAVASCRIPT:alert(1)'])('does not link %s', (url) => {
    const html = renderListPage(listView(makePaper({ id: 'p', url_abs: url, url_pdf: url }), []));
    expect(html).not.toMatch(/href="\s*(javascript|data):/i);
    expect(html).not.toContain('>Abstract</a>');
    expect(html).not.toContain('>PDF</a>');
  });

  it('links the abstract and PDF when they are http(s)', () => {
    const html = renderListPage(listView(makePaper({ id: 'p', url_abs: 'https://a.org/x?a=1&b=2', url_pdf: 'http://a.org/x.pdf' }), []));
    expect(html).toContain('<a href="https://a.org/x?a=1&amp;b=2" rel="noopener noreferrer nofollow">Abstract</a>');
    expect(html).toContain('<a href="http://a.org/x.pdf" rel="noopener noreferrer nofollow">PDF</a>');
  });

  it('builds first/previous/next/last and the raw JSON link with the JSON link builder', () => {
    const html = renderListPage(listView(benign, [['q', 'a b'], ['title', 'T&C'], ['page', '2']]));
    expect(html).toContain('<a href="http://h/api/papers/?q=a+b&amp;title=T%26C" rel="first">First</a>');
    expect(html).toContain('<a href="http://h/api/papers/?q=a+b&amp;title=T%26C" rel="prev">Previous</a>');
    expect(html).toContain('<a href="http://h/api/papers/?page=3&amp;q=a+b&amp;title=T%26C" rel="next">Next</a>');
    expect(html).toContain('<a href="http://h/api/papers/?page=3&amp;q=a+b&amp;title=T%26C" rel="last">Last</a>');
    expect(html).toContain('href="http://h/api/papers/?format=json&amp;page=2&amp;q=a+b&amp;title=T%26C" type="application/json">Raw JSON</a>');
  });

  it('shows disabled first/previous on page 1 and next/last on the last page', () => {
    const first = renderListPage({ ...listView(benign, []), page: 1 });
    expect(first).toContain('<span aria-disabled="true">First</span>');
    expect(first).toContain('<span aria-disabled="true">Previous</span>');
    const last = renderListPage({ ...listView(benign, []), page: 3 });
    expect(last).toContain('<span aria-disabled="true">Next</span>');
    expect(last).toContain('<span aria-disabled="true">Last</span>');
  });

  it('echoes the search, keeps other parameters as hidden fields and drops page', () => {
    const html = renderListPage(listView(benign, [['q', 'gpt "4"'], ['arxiv_id', '1706.03762'], ['page', '2'], ['format', 'html']]));
    expect(html).toContain('name="q" value="gpt &quot;4&quot;"');
    expect(html).toContain('<input type="hidden" name="arxiv_id" value="1706.03762">');
    expect(html).toContain('<input type="hidden" name="format" value="html">');
    expect(html).not.toContain('name="page"');
    expect(html).toContain('<h1>Papers matching “gpt &quot;4&quot;”</h1>');
  });

  it('offers the default and the 8 orderings, selecting the current one, and keeps a custom one', () => {
    expect(ORDERING_CHOICES.map((choice) => choice.value)).toEqual([
      'published', '-published', 'arxiv_id', '-arxiv_id', 'title', '-title', 'id', '-id',
    ]);
    const html = renderListPage(listView(benign, [['ordering', '-published']]));
    expect(html.match(/<option /g)).toHaveLength(9 + 6);
    expect(html).toContain('<option value="-published" selected>Published, newest first</option>');
    const custom = renderListPage(listView(benign, [['ordering', '-published,title']]));
    expect(custom).toContain('<option value="-published,title" selected>Custom: -published,title</option>');
  });

  it('has the page furniture: lang, labels, landmarks, no script', () => {
    const html = renderListPage(listView(benign, []));
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta charset="utf-8">');
    for (const part of ['<header>', '<main id="main"', '<footer>', 'role="search"', '<nav class="pager" aria-label="Pages">']) {
      expect(html).toContain(part);
    }
    expect(html).toMatch(/<label class="q">Search papers<input type="search" name="q"/);
    expect(html).toMatch(/<label>Order by<select name="ordering">/);
    expect(html).toMatch(/<label>Per page<select name="items_per_page">/);
    expect(html).not.toMatch(/<script|<link|src=/i);
    expect(html).toContain('<ol class="results" start="51">');
    expect(html).toContain('<a href="http://h/api/papers/id-x/">x</a>');
  });

  it('says when nothing matches and shows no pager', () => {
    const html = renderListPage({ ...listView(benign, [['q', 'zzz']]), count: 0, page: 1, lastPage: 1, papers: [] });
    expect(html).toContain('No papers match.');
    expect(html).not.toContain('<ol');
    expect(html).not.toContain('<nav');
  });

  it('percent-encodes ids in paper links', () => {
    const html = renderListPage(listView(makePaper({ id: 'a b/"c"?' }), []));
    expect(html).toContain('href="http://h/api/papers/a%20b%2F%22c%22%3F/"');
  });
});

describe('renderPaperPage', () => {
  const shape = markupShape(renderPaperPage({ paper: benign, listUrl: '/api/papers/', jsonUrl: 'http://h/api/papers/id-x/?format=json' }));

  it.each(HOSTILE)('escapes every field: %s', (text) => {
    const html = renderPaperPage({ paper: hostilePaper(text), listUrl: '/api/papers/', jsonUrl: 'http://h/api/papers/x/?format=json' });
    expect(markupShape(html)).toEqual(shape);
    expect(html).not.toContain(text);
  });

  it('shows a non-http(s) URL as inert text', () => {
    const html = renderPaperPage({
      paper: makePaper({ id: 'p', url_abs: 'javascript:alert(document.cookie)', conference_url_pdf: 'https://ok.org/x.pdf' }),
      listUrl: '/papers/',
      jsonUrl: '/papers/p/?format=json',
    });
    expect(html).toContain('<dt>Abstract page</dt><dd><code>javascript:alert(document.cookie)</code></dd>');
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('<dt>Conference PDF</dt><dd><a href="https://ok.org/x.pdf"');
  });
});

describe('renderErrorPage', () => {
  it('shows the status and the detail, escaped', () => {
    const html = renderErrorPage({ status: 405, detail: 'Method "<X>" not allowed.', listUrl: '/papers/' });
    expect(html).toContain('<h1>405 Method not allowed</h1>');
    expect(html).toContain('<p>Method &quot;&lt;X&gt;&quot; not allowed.</p>');
    expect(html).toContain('<title>405 Method not allowed · paperlist</title>');
  });
});

describe('helpers', () => {
  it('cuts long abstracts at a space and keeps short ones', () => {
    expect(snippet('short  text\n')).toBe('short text');
    const long = 'word '.repeat(100);
    const cut = snippet(long);
    expect(cut.endsWith('word…')).toBe(true);
    expect(Array.from(cut).length).toBeLessThanOrEqual(301);
    expect(snippet('🧪'.repeat(400))).toBe(`${'🧪'.repeat(300)}…`);
  });

  it('names up to 8 authors', () => {
    expect(listAuthors(['a', 'b'])).toBe('a, b');
    expect(listAuthors(Array.from({ length: 10 }, (_, i) => `a${i}`))).toBe('a0, a1, a2, a3, a4, a5, a6, a7 and 2 more');
  });
});
