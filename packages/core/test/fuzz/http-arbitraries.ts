import fc from 'fast-check';

/** Parameter names the API reads, plus look-alikes and junk, so fuzzing hits real code paths. */
const PARAMETER_NAMES = [
  'q', 'ordering', 'page', 'items_per_page', 'arxiv_id', 'title', 'abstract', 'format', 'q[]', 'q[a]', 'page[]', '',
  'published_after', 'published_before', 'year', 'author', 'proceeding', 'venue',
  'id', 'count_only', 'fields', 'omit', 'cursor', 'facets', 'facet_limit', 'facet_null', 'highlight', 'crop', 'task', 'method',
];

const VALUE_SNIPPETS = [
  'last', '0', '-1', '1', '2', '99999999999999999999999', '1e3', 'NaN', 'title', '-published', 'id,-title',
  'json', 'html', 'xml', '"quoted phrase"', 'gpt-4', '1706.03762', 'hep-th/9307096', 'Schrödinger', '%', '%ZZ',
  '%E0%A4%A', '%FF', '%00', '%C0%80', '%ED%A0%80', '+', ',', '"', "'", '<script>', '\\', '\u0000',
  '2020', '2016-2020', '2010-', '-2015', '2019-02-30', '2020-02', '|', 'a|b', 'acl-2020-7', 'NIPS',
  'jsonl', '*', 'e30', 'WzEsImlkIixbIngiXV0', 'year,venue', 'task,author', 'id,title', 'titel', 'title,abstract,authors',
  'true', 'yes', 'image-classification',
];

/** A percent-encoded (or deliberately broken) query-string component. */
const component = fc.oneof(
  { arbitrary: fc.constantFrom(...VALUE_SNIPPETS), weight: 4 },
  { arbitrary: fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)), weight: 6 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/[#&=]/g, '')), weight: 1 },
  { arbitrary: fc.stringMatching(/^(%[0-9A-Fa-fGZ]{0,2}|[a-z+,.-]){0,20}$/), weight: 1 },
  { arbitrary: fc.constant('a'.repeat(1200)), weight: 1 },
);

/** A raw query string: repeated, unknown, empty and broken pairs included. */
export const rawQueryString = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom(...PARAMETER_NAMES), component), fc.option(component, { nil: undefined })),
    { maxLength: 8 },
  )
  .map((pairs) => pairs.map(([key, value]) => (value === undefined ? key : `${key}=${value}`)).join('&'));

/** A request path under the mount: the papers paths, near misses and junk. */
export const requestPath = fc.oneof(
  { arbitrary: fc.constant('/api/v1/papers/'), weight: 12 },
  { arbitrary: fc.constant('/api/v1/papers'), weight: 1 },
  {
    arbitrary: fc.constantFrom('attention-is-all-you-need', 'nope', '%E0', '%2F', '..', 'a%00b').map((id) => `/api/v1/papers/${id}/`),
    weight: 3,
  },
  { arbitrary: fc.string({ maxLength: 20 }).map((s) => `/api/v1/papers/${encodeURIComponent(s)}`), weight: 1 },
  { arbitrary: fc.constantFrom('/api/v1/', '/api/v1/papers//', '/api/v1/papers/x/y/', '/other'), weight: 1 },
);

/** Any method, including odd and lower-case ones. */
export const method = fc.oneof(
  { arbitrary: fc.constant('GET'), weight: 10 },
  { arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'get'), weight: 2 },
  { arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND'), weight: 1 },
);

/** Header sets: Accept, conditional and host headers, garbage values. */
export const headers = fc.record(
  {
    accept: fc.oneof(
      { arbitrary: fc.constantFrom('*/*', 'application/json', 'text/html;q=0.5, application/json', ';;;', ''), weight: 6 },
      { arbitrary: fc.constantFrom('text/html', 'application/xml', 'application/*;q=0'), weight: 1 },
      { arbitrary: fc.string({ maxLength: 60 }), weight: 1 },
    ),
    'if-none-match': fc.oneof(fc.constant('*'), fc.string({ maxLength: 40 })),
    host: fc.oneof(fc.constantFrom('127.0.0.1:8000', 'localhost', 'evil.example', ''), fc.string({ maxLength: 30 })),
  },
  { requiredKeys: [] },
);

/** Statuses the contract documents. */
export const DOCUMENTED_STATUSES = new Set([200, 301, 304, 400, 404, 405, 406]);
