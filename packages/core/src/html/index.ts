export { escapeHtml, safeExternalUrl } from './escape-html.js';
export { renderDocument, type DocumentView } from './render-document.js';
export { renderListPage, PAGE_SIZE_CHOICES, type ListPageView } from './render-list-page.js';
export { renderPaperPage, type PaperPageView } from './render-paper-page.js';
export { renderErrorPage, STATUS_TITLES, type ErrorPageView } from './render-error-page.js';
export { ORDERING_CHOICES, defaultOrderingChoice, type OrderingChoice } from './ordering-choices.js';
export { htmlResponse, htmlErrorResponse, HTML_CONTENT_TYPE, HTML_SECURITY_HEADERS } from './html-response.js';
