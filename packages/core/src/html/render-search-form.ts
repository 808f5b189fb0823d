import type { QueryPair } from '../query/query-string.js';
import { MAX_QUERY_LENGTH } from '../text/parse-search.js';
import { escapeHtml } from './escape-html.js';
import { defaultOrderingChoice, ORDERING_CHOICES } from './ordering-choices.js';

/** What the search form shows and sends. */
export interface SearchFormView {
  /** The list path the form is sent to with GET. */
  action: string;
  /** The current `q`, echoed in the box. */
  q: string;
  /** The current `ordering` as given (may be a custom combination such as `-published,title`). */
  ordering: string;
  /** The page size in force. */
  pageSize: number;
  /** The choices of the page-size select. */
  pageSizeChoices: readonly number[];
  /** Other parameters of the request (filters, `format`, unknown ones), kept as hidden fields. */
  hidden: readonly QueryPair[];
}

/** Parameters the form's own fields send; `page` is dropped so a new search starts at page 1. */
export const FORM_FIELDS: ReadonlySet<string> = new Set(['q', 'ordering', 'items_per_page', 'page']);

/** The search form: a labelled search box, the ordering and page-size selects, and a submit button. */
export function renderSearchForm(view: SearchFormView): string {
  const choices = [defaultOrderingChoice(view.q.trim() !== ''), ...ORDERING_CHOICES];
  const orderings = choices.some((choice) => choice.value === view.ordering)
    ? choices
    : [...choices, { value: view.ordering, label: `Custom: ${view.ordering}` }];
  const sizes = view.pageSizeChoices.includes(view.pageSize)
    ? view.pageSizeChoices
    : [...view.pageSizeChoices, view.pageSize].sort((a, b) => a - b);
  return `<form class="search" role="search" method="get" action="${escapeHtml(view.action)}">
<label class="q">Search papers<input type="search" name="q" value="${escapeHtml(view.q)}" maxlength="${MAX_QUERY_LENGTH}" placeholder="Title, abstract, authors or arXiv id" autocomplete="off"></label>
<label>Order by<select name="ordering">${orderings.map((choice) => option(choice.value, choice.label, choice.value === view.ordering)).join('')}</select></label>
<label>Per page<select name="items_per_page">${sizes.map((size) => option(String(size), String(size), size === view.pageSize)).join('')}</select></label>
${view.hidden.map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(value)}">`).join('')}
<button type="submit">Search</button>
</form>`;
}

function option(value: string, label: string, selected: boolean): string {
  return `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
}
