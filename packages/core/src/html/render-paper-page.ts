import type { Paper } from '../paper.js';
import { escapeHtml, safeExternalUrl } from './escape-html.js';
import { renderDocument } from './render-document.js';

/** What the page of one paper shows. */
export interface PaperPageView {
  paper: Paper;
  /** The list page (for the header and the "all papers" link). */
  listUrl: string;
  /** The same paper as JSON (`?format=json`). */
  jsonUrl: string;
}

/** The page of one paper: every field of the record, the full abstract, and links out. */
export function renderPaperPage(view: PaperPageView): string {
  const { paper } = view;
  const rows: [string, string][] = [
    ['Authors', paper.authors.length === 0 ? '' : escapeHtml(paper.authors.join(', '))],
    ['Published', paper.published === null ? '' : `<time datetime="${escapeHtml(paper.published)}">${escapeHtml(paper.published)}</time>`],
    ['arXiv id', text(paper.arxiv_id)],
    ['NeurIPS id', text(paper.nips_id)],
    ['Abstract page', urlValue(paper.url_abs)],
    ['PDF', urlValue(paper.url_pdf)],
    ['Conference', text(paper.conference)],
    ['Conference abstract', urlValue(paper.conference_url_abs)],
    ['Conference PDF', urlValue(paper.conference_url_pdf)],
    ['Proceeding', text(paper.proceeding)],
    ['Id', `<code>${escapeHtml(paper.id)}</code>`],
  ];
  const fields = rows
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`)
    .join('\n');
  const main = `<p><a href="${escapeHtml(view.listUrl)}">All papers</a></p>
<article aria-labelledby="title">
<h1 id="title">${escapeHtml(paper.title)}</h1>
<dl class="fields">
${fields}
</dl>
<h2>Abstract</h2>
<p class="full-abstract">${paper.abstract === '' ? 'No abstract.' : escapeHtml(paper.abstract)}</p>
</article>`;
  return renderDocument({ title: `${paper.title} · paperlist`, main, homeUrl: view.listUrl, jsonUrl: view.jsonUrl });
}

function text(value: string | null): string {
  return value === null || value === '' ? '' : escapeHtml(value);
}

// An http(s) URL becomes a link; anything else (`javascript:`, relative) is shown as inert text.
function urlValue(url: string | null): string {
  if (url === null || url === '') return '';
  const href = safeExternalUrl(url);
  if (href === null) return `<code>${escapeHtml(url)}</code>`;
  return `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${escapeHtml(url)}</a>`;
}
