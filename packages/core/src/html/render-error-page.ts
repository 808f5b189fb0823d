import { escapeHtml } from './escape-html.js';
import { renderDocument } from './render-document.js';

/** Reason phrases of the statuses the papers API answers with. */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  429: 'Too many requests',
  500: 'Server error',
  503: 'Service unavailable',
};

/** What an error page shows: the status, the same `detail` as the JSON answer, a way back. */
export interface ErrorPageView {
  status: number;
  detail: string;
  /** The list page. */
  listUrl: string;
}

/** The HTML page of an error answer; it is sent with the error's own status. */
export function renderErrorPage(view: ErrorPageView): string {
  const title = `${view.status} ${STATUS_TITLES[view.status] ?? 'Error'}`;
  const main = `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(view.detail)}</p>
<p><a href="${escapeHtml(view.listUrl)}">Back to all papers</a></p>`;
  return renderDocument({ title: `${title} · paperlist`, main, homeUrl: view.listUrl });
}
