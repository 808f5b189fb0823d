import type { PaperSource } from '../source.js';
import type { ExtensionOptions } from '../filters/extension-params.js';
import { DEFAULT_VENUE_ALIASES, asciiLowerCase } from '../filters/venue-key.js';
import type { PapersRequest } from './types.js';
import { resolveWriteOptions, type WriteConfig } from './writes/write-options.js';

/**
 * Options of the papers API, shared by every adapter.
 *
 * @example createPapersHandler({ source: createMemorySource(papers), baseUrl: 'https://papers.example.org' })
 */
export interface PapersHandlerOptions {
  /** Where the papers come from; a `WritableSource` when writes are enabled (`writeToken` or `authorize`). */
  source: PaperSource;
  /**
   * `scheme://host[:port]`, optionally with a path prefix, that absolute links start with
   * (the request's path follows it). Without it links use the request's own origin.
   */
  baseUrl?: string;
  /** Results per page when `items_per_page` is absent or unusable. Default 50. */
  pageSize?: number;
  /** Largest `items_per_page` honoured; larger values are capped. Default 500. */
  maxPageSize?: number;
  /**
   * Called with the error when the source fails; the client gets a `503` without details.
   * Default: written to `console.error`.
   */
  onError?: (error: unknown, request: PapersRequest) => void;
  /**
   * Hosts whose requests may shape absolute links, when there is no `baseUrl`: `example.org`
   * (any port), `.example.org` (it and its subdomains) or `*` (any: only behind a proxy that
   * checks the host itself). A request for any other host gets `400`, so a forged `Host` or
   * `X-Forwarded-Host` can never poison links or caches. Default: the local addresses
   * `localhost`, `127.0.0.1` and `[::1]`. Ignored when `baseUrl` is set.
   */
  allowedHosts?: readonly string[];
  /**
   * Milliseconds a source call may take before the request is answered `503` with
   * `Retry-After` and the call's `signal` is aborted. Default: no limit.
   */
  timeoutMs?: number;
  /** The `Retry-After` seconds of a `503`. Default 5. */
  retryAfterSeconds?: number;
  /**
   * The list parameters beyond the original API: `published_after`, `published_before`,
   * `year`, `author`, `proceeding` and `venue` (docs/http-api.md). Default `true`; with
   * `false` they are unknown parameters, ignored (kept in links) as the original API did.
   */
  extensions?: boolean;
  /**
   * Venue aliases for `venue=`: alias → venue key, such as the default `{ nips: 'neurips' }`.
   * `venue=nips` then finds the papers of `neurips` and of `nips`, and so does `venue=neurips`.
   * Keys and values are compared case-insensitively (ASCII). Replaces the default map.
   */
  venueAliases?: Readonly<Record<string, string>>;
  /**
   * Enables the write API (docs/http-api.md, "Writes"): `PUT` and `DELETE {mount}/papers/{id}/`,
   * `POST {mount}/papers/` (JSON Lines), for requests with `Authorization: Token <writeToken>`
   * (or `Bearer`). The source must then be a `WritableSource`. Off by default: writes are `405`.
   */
  writeToken?: string;
  /**
   * Enables the write API like `writeToken`, with the host's own check instead: a write goes
   * ahead when it resolves `true`; `false` is a `401`. Give `writeToken` or `authorize`, not both.
   */
  authorize?: (request: PapersRequest) => boolean | Promise<boolean>;
  /**
   * Largest write body in bytes, counted as received and again decompressed (gzip); larger is
   * `413`. Default 16 MiB.
   */
  maxWriteBytes?: number;
}

/** The hosts allowed by default: local addresses, for development. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Results per page when neither the options nor `items_per_page` say otherwise. */
export const DEFAULT_PAGE_SIZE = 50;
/** Largest `items_per_page` honoured when the options do not say otherwise. */
export const DEFAULT_MAX_PAGE_SIZE = 500;

/** Options after validation, defaults filled in. */
export interface ResolvedHandlerOptions {
  source: PaperSource;
  baseUrl: string | null;
  pageSize: number;
  maxPageSize: number;
  onError: (error: unknown, request: PapersRequest) => void;
  allowedHosts: readonly string[] | null;
  timeoutMs: number | null;
  retryAfterSeconds: number;
  /** The extension parameters' options, or `false` when they are off. */
  extensions: ExtensionOptions | false;
  /** How writes are authorized and bounded; `null` when they are off (the API is read-only). */
  writes: WriteConfig | null;
}

/** Thrown at construction when options are unusable; `code` names the option. */
export class PaperlistOptionsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PaperlistOptionsError';
  }
}

/** Validates options once, at construction, with a clear error. */
export function resolveHandlerOptions(options: PapersHandlerOptions): ResolvedHandlerOptions {
  const source = options?.source;
  if (!source || typeof source.list !== 'function' || typeof source.get !== 'function') {
    throw new PaperlistOptionsError('source', 'paperlist: `source` must be a PaperSource with list() and get().');
  }
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  for (const [name, value] of [
    ['pageSize', pageSize],
    ['maxPageSize', maxPageSize],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new PaperlistOptionsError(name, `paperlist: \`${name}\` must be a positive integer, got ${String(value)}.`);
    }
  }
  if (pageSize > maxPageSize) {
    throw new PaperlistOptionsError('pageSize', `paperlist: \`pageSize\` (${pageSize}) exceeds \`maxPageSize\` (${maxPageSize}).`);
  }
  const { timeoutMs, retryAfterSeconds = 5, allowedHosts = DEFAULT_ALLOWED_HOSTS } = options;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new PaperlistOptionsError('timeoutMs', `paperlist: \`timeoutMs\` must be a positive number, got ${String(timeoutMs)}.`);
  }
  if (!Number.isSafeInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
    throw new PaperlistOptionsError('retryAfterSeconds', `paperlist: \`retryAfterSeconds\` must be a whole number of seconds, got ${String(retryAfterSeconds)}.`);
  }
  if (!Array.isArray(allowedHosts) || allowedHosts.some((host) => typeof host !== 'string' || host === '')) {
    throw new PaperlistOptionsError('allowedHosts', 'paperlist: `allowedHosts` must be an array of host names.');
  }
  const baseUrl = options.baseUrl === undefined ? null : normalizeBaseUrl(options.baseUrl);
  const { extensions = true } = options;
  if (typeof extensions !== 'boolean') {
    throw new PaperlistOptionsError('extensions', `paperlist: \`extensions\` must be true or false, got ${String(extensions)}.`);
  }
  const writes = resolveWriteOptions(options, source);
  if (Array.isArray(writes)) throw new PaperlistOptionsError(writes[0], writes[1]);
  return {
    source,
    baseUrl,
    pageSize,
    maxPageSize,
    onError: options.onError ?? defaultOnError,
    // With a baseUrl the request's host never reaches a link: nothing to check.
    allowedHosts: baseUrl === null ? allowedHosts.map((host) => host.toLowerCase()) : null,
    timeoutMs: timeoutMs ?? null,
    retryAfterSeconds,
    extensions: extensions ? { venueAliases: resolveVenueAliases(options.venueAliases) } : false,
    writes,
  };
}

/** The alias map with keys and values trimmed and ASCII lower-cased, as `venue=` values are. */
function resolveVenueAliases(aliases: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
  if (aliases === undefined) return DEFAULT_VENUE_ALIASES;
  if (typeof aliases !== 'object' || aliases === null || Array.isArray(aliases)) {
    throw new PaperlistOptionsError('venueAliases', 'paperlist: `venueAliases` must be an object of alias → venue key strings.');
  }
  const resolved: Record<string, string> = {};
  for (const [alias, target] of Object.entries(aliases)) {
    const key = asciiLowerCase(alias.trim());
    if (typeof target !== 'string' || key === '' || target.trim() === '') {
      throw new PaperlistOptionsError('venueAliases', `paperlist: \`venueAliases\` must map non-empty strings to non-empty strings, got ${JSON.stringify(alias)}.`);
    }
    resolved[key] = asciiLowerCase(target.trim());
  }
  return resolved;
}

function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new PaperlistOptionsError('baseUrl', `paperlist: \`baseUrl\` must be an absolute URL, got ${JSON.stringify(baseUrl)}.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new PaperlistOptionsError('baseUrl', `paperlist: \`baseUrl\` must be an http(s) URL without query or fragment, got ${JSON.stringify(baseUrl)}.`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function defaultOnError(error: unknown, request: PapersRequest): void {
  console.error(`paperlist: source failed for ${request.method} ${request.url}:`, error);
}
