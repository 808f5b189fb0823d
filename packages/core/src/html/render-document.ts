import { escapeHtml } from './escape-html.js';
import { PAGE_STYLES } from './page-styles.js';

/** What every page has around its main content. */
export interface DocumentView {
  /** The page's `<title>` (plain text; escaped here). */
  title: string;
  /** The `<main>` content, already HTML. */
  main: string;
  /** Where the site name in the header links to: the list page. */
  homeUrl: string;
  /** The same response as JSON, linked from the header (`?format=json`). */
  jsonUrl?: string | null;
}

/**
 * A complete HTML page: `lang`, charset, viewport, the inline stylesheet, a skip link, and the
 * `header`/`main`/`footer` landmarks. No script and no external resource.
 */
export function renderDocument(view: DocumentView): string {
  const json =
    view.jsonUrl === undefined || view.jsonUrl === null
      ? ''
      : `<a href="${escapeHtml(view.jsonUrl)}" type="application/json">Raw JSON</a>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(view.title)}</title>
<style>${PAGE_STYLES}</style>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header>
<a class="brand" href="${escapeHtml(view.homeUrl)}">paperlist</a>
${json}
</header>
<main id="main" tabindex="-1">
${view.main}
</main>
<footer>
<p>Papers with Code API v1, served by paperlist. Add <code>?format=json</code> to any address for the JSON.</p>
</footer>
</body>
</html>
`;
}
