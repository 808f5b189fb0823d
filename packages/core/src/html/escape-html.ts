const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made safe for HTML element content and for quoted attribute values: `&`, `<`, `>`,
 * `"` and `'` become entities. Every string the pages show goes through this, whatever its
 * origin (catalogue, query, configuration).
 *
 * @example escapeHtml('<b>"x" & y</b>') // '&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/**
 * The URL to put in an `href` for a link that came from the catalogue, or `null` when it must
 * not become a link: only absolute `http:` and `https:` URLs qualify, so `javascript:`,
 * `data:` and relative URLs stay plain text. The result still needs {@link escapeHtml}.
 */
export function safeExternalUrl(url: string | null): string | null {
  if (url === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}
