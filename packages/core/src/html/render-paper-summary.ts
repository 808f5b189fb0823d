import type { Paper } from '../paper.js';
import { escapeHtml, safeExternalUrl } from './escape-html.js';
import { highlightText } from '../highlight/highlight-text.js';
import type { SearchTerm } from '../source.js';

/** Longest abstract snippet shown in a list, in characters (code points). */
export const SNIPPET_LENGTH = 300;
/** Words of the abstract shown around the first match of a search. */
const SNIPPET_WORDS = 45;
/** Authors named in a list entry before "and N more". */
export const LISTED_AUTHORS = 8;

/**
 * One entry of the results: the title linking to the paper's page, authors, date, an abstract
 * snippet, and links to the abstract page and the PDF (only when they are http(s) URLs).
 *
 * @param paperUrl the address of the paper's own page
 */
export function renderPaperSummary(paper: Paper, paperUrl: string, headingId: string, terms: readonly SearchTerm[] = []): string {
  // With a search, its matches are marked (`<mark>`), the abstract cut around the first one.
  const title = terms.length === 0 ? escapeHtml(paper.title) : highlightText(paper.title, terms);
  const abstract = terms.length === 0 ? escapeHtml(snippet(paper.abstract)) : highlightText(paper.abstract.replace(/\s+/g, ' ').trim(), terms, { crop: SNIPPET_WORDS });
  const meta = [
    paper.authors.length === 0 ? '' : `<span>${escapeHtml(listAuthors(paper.authors))}</span>`,
    paper.published === null ? '' : `<time datetime="${escapeHtml(paper.published)}">${escapeHtml(paper.published)}</time>`,
    paper.arxiv_id === null ? '' : `<span>arXiv ${escapeHtml(paper.arxiv_id)}</span>`,
  ].filter((part) => part !== '');
  const links = [externalLink(paper.url_abs, 'Abstract'), externalLink(paper.url_pdf, 'PDF')].filter((link) => link !== '');
  return `<article aria-labelledby="${escapeHtml(headingId)}">
<h2 id="${escapeHtml(headingId)}"><a href="${escapeHtml(paperUrl)}">${title}</a></h2>
${meta.length === 0 ? '' : `<p class="meta">${meta.join(' · ')}</p>`}
${paper.abstract === '' ? '' : `<p class="abstract">${abstract}</p>`}
${links.length === 0 ? '' : `<ul class="links">${links.map((link) => `<li>${link}</li>`).join('')}</ul>`}
</article>`;
}

/**
 * A link to a catalogue URL, labelled with the paper's title for screen readers; `''` when the
 * URL is not http(s), so a `javascript:` URL never becomes a live link.
 */
export function externalLink(url: string | null, label: string): string {
  const href = safeExternalUrl(url);
  if (href === null) return '';
  return `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${escapeHtml(label)}</a>`;
}

/** The authors as one line: all of them up to {@link LISTED_AUTHORS}, else the first ones and a count. */
export function listAuthors(authors: readonly string[]): string {
  if (authors.length <= LISTED_AUTHORS) return authors.join(', ');
  return `${authors.slice(0, LISTED_AUTHORS).join(', ')} and ${authors.length - LISTED_AUTHORS} more`;
}

/** The start of an abstract, cut at a space near {@link SNIPPET_LENGTH} characters, with an ellipsis. */
export function snippet(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  if (chars.length <= SNIPPET_LENGTH) return chars.join('');
  const cut = chars.slice(0, SNIPPET_LENGTH).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > SNIPPET_LENGTH * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
