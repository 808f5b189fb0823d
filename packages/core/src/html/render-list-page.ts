import type { SearchTerm } from '../source.js';
import { lastValue } from '../query/query-string.js';
import { buildPageLinks, pageUrl, type PageLinkContext } from '../pagination/page-links.js';
import type { Paper } from '../paper.js';
import { escapeHtml } from './escape-html.js';
import { formatCount } from './format-count.js';
import { listJsonUrl, paperPageUrl } from './page-addresses.js';
import { renderDocument } from './render-document.js';
import { renderPager } from './render-pager.js';
import { renderPaperSummary } from './render-paper-summary.js';
import { FILTER_FORM_FIELDS, FORM_FIELDS, renderSearchForm } from './render-search-form.js';

/** Page sizes offered by the form (those up to the configured maximum). */
export const PAGE_SIZE_CHOICES: readonly number[] = [10, 25, 50, 100, 250, 500];

/** Everything the list page shows: the JSON answer's data plus where its links point. */
export interface ListPageView {
  /** Origin, list path and the request's query pairs: the same context as the JSON links. */
  links: PageLinkContext;
  /** Matching papers across all pages. */
  count: number;
  page: number;
  lastPage: number;
  pageSize: number;
  maxPageSize: number;
  /** The papers of this page, in order. */
  papers: readonly Paper[];
  /** Whether the extension filters are on (the handler's `extensions`). Default false. */
  extensions?: boolean;
  /** The search terms, whose matches are marked in titles and abstracts. */
  terms?: readonly SearchTerm[];
}

/**
 * The browsable list page: the search form (query echoed), the count, the results with links
 * to each paper's page, first/previous/next/last navigation built by {@link buildPageLinks}
 * and {@link pageUrl} (the JSON's own link builder), and a link to the raw JSON.
 */
export function renderListPage(view: ListPageView): string {
  const { links: context, page, lastPage, count } = view;
  const { next, previous } = buildPageLinks(context, page, lastPage);
  const q = lastValue(context.pairs, 'q') ?? '';
  // The filter fields appear once a request uses one of them (a link or a typed URL): a page
  // without them stays byte for byte the page its ETag has always named.
  const filtering = view.extensions === true && context.pairs.some(([key]) => FILTER_FORM_FIELDS.has(key));
  const filters = filtering ? new Map([...FILTER_FORM_FIELDS].map((name) => [name, lastValue(context.pairs, name) ?? ''])) : null;
  const form = renderSearchForm({
    action: context.path,
    q,
    ordering: lastValue(context.pairs, 'ordering') ?? '',
    pageSize: view.pageSize,
    pageSizeChoices: PAGE_SIZE_CHOICES.filter((size) => size <= view.maxPageSize),
    hidden: context.pairs.filter(([key]) => !FORM_FIELDS.has(key) && (filters === null || !FILTER_FORM_FIELDS.has(key))),
    filters,
  });
  const pager = renderPager({
    page,
    lastPage,
    first: page > 1 ? pageUrl(context, 1) : null,
    previous,
    next,
    last: page < lastPage ? pageUrl(context, lastPage) : null,
  });
  const firstIndex = (page - 1) * view.pageSize + 1;
  const shown =
    count === 0
      ? 'No papers match.'
      : `${formatCount(count)} ${count === 1 ? 'paper' : 'papers'}; showing ${formatCount(firstIndex)} to ` +
        `${formatCount(firstIndex + view.papers.length - 1)} (page ${formatCount(page)} of ${formatCount(lastPage)}).`;
  const results = view.papers
    .map((paper, i) => `<li>${renderPaperSummary(paper, paperPageUrl(context.origin, context.path, paper.id), `paper-${firstIndex + i}`, view.terms ?? [])}</li>`)
    .join('\n');
  const heading = q === '' ? 'Papers' : `Papers matching “${q}”`;
  const main = `<h1>${escapeHtml(heading)}</h1>
${form}
<p class="summary" id="count" data-count="${count}">${shown}</p>
${count === 0 ? '' : `<ol class="results" start="${firstIndex}">\n${results}\n</ol>`}
${lastPage > 1 ? pager : ''}`;
  return renderDocument({
    title: page > 1 ? `${heading}, page ${page} · paperlist` : `${heading} · paperlist`,
    main,
    homeUrl: context.path,
    jsonUrl: listJsonUrl(context, page),
  });
}
