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
  /**
   * The extension filters' current values, shown as fields of their own (`year`, `author`…),
   * or `null` to leave them out (then the page is the one the original parameters always got).
   */
  filters: ReadonlyMap<string, string> | null;
}

/** The extension filters the form shows, with their labels and hints (see docs/http-api.md). */
const FILTER_FIELDS: readonly { name: string; label: string; placeholder: string }[] = [
  { name: 'year', label: 'Year', placeholder: '2016-2020' },
  { name: 'published_after', label: 'Published after', placeholder: 'YYYY-MM-DD' },
  { name: 'published_before', label: 'Published before', placeholder: 'YYYY-MM-DD' },
  { name: 'author', label: 'Author', placeholder: 'graham neubig' },
  { name: 'venue', label: 'Venue', placeholder: 'acl|emnlp' },
  { name: 'proceeding', label: 'Proceeding', placeholder: 'acl-2020-7' },
];

/** The parameters the filter fields send (their hidden copies are dropped when the fields are shown). */
export const FILTER_FORM_FIELDS: ReadonlySet<string> = new Set(FILTER_FIELDS.map((field) => field.name));

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
${view.filters === null ? '' : renderFilterFields(view.filters)}${view.hidden.map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(value)}">`).join('')}
<button type="submit">Search</button>
</form>`;
}

function renderFilterFields(values: ReadonlyMap<string, string>): string {
  return FILTER_FIELDS.map(
    (field) =>
      `<label>${escapeHtml(field.label)}<input type="text" name="${field.name}" value="${escapeHtml(values.get(field.name) ?? '')}" placeholder="${escapeHtml(field.placeholder)}" autocomplete="off"></label>\n`,
  ).join('');
}

function option(value: string, label: string, selected: boolean): string {
  return `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
}
