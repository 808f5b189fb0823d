import { escapeHtml } from './escape-html.js';
import { formatCount } from './format-count.js';

/** The navigation links of a list page; `null` where there is no such page. */
export interface PagerView {
  page: number;
  lastPage: number;
  first: string | null;
  previous: string | null;
  next: string | null;
  last: string | null;
}

/** First / previous / "page N of M" / next / last, as a labelled `nav`; missing links are shown disabled. */
export function renderPager(view: PagerView): string {
  const items = [
    link(view.first, 'First', 'first'),
    link(view.previous, 'Previous', 'prev'),
    `<span class="current" aria-current="page">Page ${formatCount(view.page)} of ${formatCount(view.lastPage)}</span>`,
    link(view.next, 'Next', 'next'),
    link(view.last, 'Last', 'last'),
  ];
  return `<nav class="pager" aria-label="Pages"><ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul></nav>`;
}

function link(url: string | null, label: string, rel: string): string {
  if (url === null) return `<span aria-disabled="true">${label}</span>`;
  return `<a href="${escapeHtml(url)}" rel="${rel}">${label}</a>`;
}
