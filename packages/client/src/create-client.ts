import { anySignal, sleep } from './abort-signals.js';
import { listQuery } from './list-query.js';
import { PaperlistError } from './paperlist-error.js';
import { parseRetryAfter, retryDelay, RETRIED_STATUSES, type RetryPolicy } from './retry-delay.js';
import type { BulkOptions, ListPapersParams, Method, Page, Paper, PaperChange, PaperInput, PaperList, RequestOptions, SubListParams, Task, UpsertResult, WriteResult } from './types.js';

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * Where the API is mounted: the URL that `/papers/` follows, e.g.
   * `https://papers.example.org/api/v1`. In a browser it may be relative to the page.
   */
  baseUrl: string | URL;
  /** The fetch to use. Default: the global `fetch`, looked up at each call. */
  fetch?: typeof fetch;
  /** Retries of a request answered 429 or 503. Default 3; 0 disables retrying. */
  retries?: number;
  /** Base of the exponential backoff between retries, in ms (with full jitter). Default 250. */
  retryDelayMs?: number;
  /** Longest wait between retries, in ms; a longer `Retry-After` is not waited for. Default 30,000. */
  maxRetryDelayMs?: number;
  /** Aborts every call of this client. */
  signal?: AbortSignal;
  /** Extra request headers (an API key for a proxy in front, say). */
  headers?: Record<string, string>;
  /**
   * The server's write token, sent as `Authorization: Token <token>` by the writes (`upsert`,
   * `remove`, `bulk`) only; reads never carry it. Without it writes go without credentials
   * (the server answers 401 unless something in front adds them).
   */
  token?: string;
}

/** A typed client of the papers API. */
export interface PaperlistClient {
  /** One page of papers. */
  listPapers(params?: ListPapersParams, options?: RequestOptions): Promise<PaperList>;
  /** One paper by id; a missing id throws a {@link PaperlistError} with status 404. */
  getPaper(id: string, options?: RequestOptions): Promise<Paper>;
  /** A page of a paper's tasks (`/papers/{id}/tasks/`); a missing paper throws a 404 {@link PaperlistError}. */
  paperTasks(id: string, params?: SubListParams, options?: RequestOptions): Promise<Page<Task>>;
  /** A page of a paper's methods (`/papers/{id}/methods/`). */
  paperMethods(id: string, params?: SubListParams, options?: RequestOptions): Promise<Page<Method>>;
  /** A page of a task's papers (`/tasks/{id}/papers/`, `id` the task's slug): every list parameter applies. */
  taskPapers(taskId: string, params?: ListPapersParams, options?: RequestOptions): Promise<PaperList>;
  /**
   * Every matching paper, page after page, following the `next` links; a page is only
   * requested when the previous one is used up, and breaking out of the loop stops.
   *
   * With `cursor: '*'` (and an explicit `ordering`), the pages are a cursor walk: no depth limit,
   * and each paper that stays in the catalogue comes exactly once even while it changes.
   *
   * @example for await (const paper of client.iterPapers({ q: 'bert', items_per_page: 500 })) console.log(paper.title);
   * @example for await (const paper of client.iterPapers({ ordering: 'id', cursor: '*', items_per_page: 500 })) save(paper);
   */
  iterPapers(params?: ListPapersParams, options?: RequestOptions): AsyncGenerator<Paper, void, undefined>;
  /**
   * Stores one paper (`PUT /papers/{id}/`): created, or replaced whole. Fields left out take
   * their absent value (`null`, `""`, `[]`); `title`, `url_abs` and `url_pdf` are required.
   * Invalid fields throw a {@link PaperlistError} 400 whose `body` holds the errors by field.
   */
  upsert(paper: PaperInput, options?: RequestOptions): Promise<UpsertResult>;
  /** Deletes one paper (`DELETE /papers/{id}/`); an unknown id throws a {@link PaperlistError} 404. */
  remove(id: string, options?: RequestOptions): Promise<void>;
  /**
   * Applies a batch of upserts and deletes as one, all or nothing (`POST /papers/`, JSON Lines).
   * An invalid change throws a {@link PaperlistError} 400 whose `body.lines` lists each invalid
   * line (line `n` is change `n - 1`); nothing is then applied.
   *
   * @example await client.bulk([{ op: 'upsert', paper }, { op: 'delete', id: 'old-paper' }], { gzip: true });
   */
  bulk(changes: Iterable<PaperChange>, options?: BulkOptions): Promise<WriteResult>;
}

/**
 * A client of a paperlist server (or any Papers with Code API v1). It needs only `fetch`,
 * `URL` and `AbortController`, so it runs in Node 20+, browsers, Deno, Bun and workers.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://localhost:3000/api/v1' });
 * const { count, results } = await client.listPapers({ q: 'attention', ordering: '-published' });
 */
export function createClient(options: ClientOptions): PaperlistClient {
  const base = resolveBaseUrl(options.baseUrl);
  const policy: RetryPolicy = {
    retries: nonNegativeInteger('retries', options.retries ?? 3),
    baseDelayMs: nonNegativeInteger('retryDelayMs', options.retryDelayMs ?? 250),
    maxDelayMs: nonNegativeInteger('maxRetryDelayMs', options.maxRetryDelayMs ?? 30_000),
  };
  const headers = { ...options.headers, Accept: 'application/json' };
  const writeHeaders: Record<string, string> = options.token === undefined ? headers : { ...headers, Authorization: `Token ${options.token}` };

  /** One call, retried on 429 and 503 (a write too: a 503 applied nothing, and every write is idempotent). */
  async function call<T>(url: string, callOptions: RequestOptions, init: { method: string; headers?: Record<string, string>; body?: BodyInit } = { method: 'GET' }): Promise<{ status: number; body: T }> {
    const signal = anySignal([options.signal, callOptions.signal]);
    for (let attempt = 0; ; attempt++) {
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const response = await fetchImpl(url, { headers, ...init, ...(signal === undefined ? {} : { signal }) });
      if (response.status === 204) return { status: 204, body: undefined as T };
      if (response.ok) return { status: response.status, body: await readJson<T>(response, url) };
      const error = await toError(response, url);
      const wait = RETRIED_STATUSES.has(response.status) && attempt < policy.retries ? retryDelay(attempt, error.retryAfterMs, policy) : null;
      if (wait === null) throw error;
      await sleep(wait, signal);
    }
  }

  const getJson = async <T>(url: string, callOptions: RequestOptions) => (await call<T>(url, callOptions)).body;
  const paperUrl = (id: string) => `${base}papers/${encodeURIComponent(id)}/`;

  const listUrl = (params: ListPapersParams) => {
    const query = listQuery(params);
    return `${base}papers/${query === '' ? '' : `?${query}`}`;
  };

  return {
    listPapers: (params = {}, callOptions = {}) => getJson<PaperList>(listUrl(params), callOptions),
    getPaper: (id, callOptions = {}) => getJson<Paper>(paperUrl(id), callOptions),
    paperTasks: (id, params = {}, callOptions = {}) => getJson<Page<Task>>(withQuery(`${paperUrl(id)}tasks/`, listQuery(params)), callOptions),
    paperMethods: (id, params = {}, callOptions = {}) => getJson<Page<Method>>(withQuery(`${paperUrl(id)}methods/`, listQuery(params)), callOptions),
    taskPapers: (taskId, params = {}, callOptions = {}) =>
      getJson<PaperList>(withQuery(`${base}tasks/${encodeURIComponent(taskId)}/papers/`, listQuery(params)), callOptions),
    async *iterPapers(params = {}, callOptions = {}) {
      let url: string | null = listUrl(params);
      while (url !== null) {
        const page: PaperList = await getJson<PaperList>(url, callOptions);
        yield* page.results;
        url = page.next;
      }
    },
    async upsert(paper, callOptions = {}) {
      const answer = await call<Paper>(paperUrl(paper.id), callOptions, {
        method: 'PUT',
        headers: { ...writeHeaders, 'Content-Type': 'application/json' },
        body: JSON.stringify(paper),
      });
      return { paper: answer.body, created: answer.status === 201 };
    },
    async remove(id, callOptions = {}) {
      await call<void>(paperUrl(id), callOptions, { method: 'DELETE', headers: writeHeaders });
    },
    async bulk(changes, bulkOptions = {}) {
      const text = [...changes].map((change) => JSON.stringify(change.op === 'delete' ? { delete: change.id } : change.paper)).join('\n') + '\n';
      const gzip = bulkOptions.gzip === true;
      const body = gzip ? await gzipText(text) : text;
      const answer = await call<WriteResult>(`${base}papers/`, bulkOptions, {
        method: 'POST',
        headers: { ...writeHeaders, 'Content-Type': 'application/x-ndjson', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
        body,
      });
      return answer.body;
    },
  };
}

/** Gzip of a text with the standard `CompressionStream` (Node 18+, browsers, Deno, Bun, workers). */
async function gzipText(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function readJson<T>(response: Response, url: string): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PaperlistError(response.status, 'The answer is not JSON.', url);
  }
}

async function toError(response: Response, url: string): Promise<PaperlistError> {
  let detail = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  let fieldErrors: Record<string, string[]> | null = null;
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text());
    if (typeof body === 'object' && body !== null && typeof (body as { detail?: unknown }).detail === 'string') {
      detail = (body as { detail: string }).detail;
    } else if (isFieldErrors(body)) {
      // Invalid filter values: django-filter's messages by parameter.
      fieldErrors = body;
      detail = Object.entries(body).map(([name, messages]) => `${name}: ${messages.join(' ')}`).join('; ');
    }
  } catch {
    // Not JSON (a proxy's error page, say): keep the status line.
  }
  return new PaperlistError(response.status, detail, url, parseRetryAfter(response.headers.get('retry-after')), fieldErrors, body);
}

/** `{"name": ["message", …], …}` with at least one entry. */
function isFieldErrors(body: unknown): body is Record<string, string[]> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const entries = Object.entries(body);
  return entries.length > 0 && entries.every(([, value]) => Array.isArray(value) && value.every((m) => typeof m === 'string'));
}

// The base URL with exactly one trailing slash, so `papers/` resolves below it.
function resolveBaseUrl(baseUrl: string | URL): string {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  let url: URL;
  try {
    url = new URL(String(baseUrl), page);
  } catch {
    throw new TypeError(`paperlist client: \`baseUrl\` must be a URL, got ${JSON.stringify(String(baseUrl))}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`paperlist client: \`baseUrl\` must be an http(s) URL, got ${JSON.stringify(url.href)}.`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`paperlist client: \`baseUrl\` must have no query or fragment, got ${JSON.stringify(url.href)}.`);
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`paperlist client: \`${name}\` must be a non-negative integer, got ${String(value)}.`);
  }
  return value;
}

/** `url` with a query string, when there is one. */
function withQuery(url: string, query: string): string {
  return query === '' ? url : `${url}?${query}`;
}
