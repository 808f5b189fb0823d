/** What a request path asks for. */
export type PapersRoute =
  | { kind: 'list' }
  | { kind: 'retrieve'; id: string }
  | { kind: 'schema' }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' };

const RETRIEVE = /^\/papers\/([^/]+)(\/?)$/;

/**
 * Routes a path below the mount: `/papers/` lists, `/papers/{id}/` retrieves, `/schema/` is the
 * OpenAPI document; each without the trailing slash redirects to it (query kept). Anything else
 * is not ours (`null`).
 *
 * @param pathname the request path as received (percent-encoded), without the query
 * @param basePath the mount prefix, `''` for none
 * @param search the raw query including `?`, or `''`
 */
export function routePapersPath(pathname: string, basePath: string, search: string): PapersRoute | null {
  const base = mountPrefix(basePath);
  if (!pathname.startsWith(base)) return null;
  const rest = pathname.slice(base.length);
  if (rest === '/papers/') return { kind: 'list' };
  if (rest === '/papers') return { kind: 'redirect', location: `${pathname}/${search}` };
  if (rest === '/schema/') return { kind: 'schema' };
  if (rest === '/schema') return { kind: 'redirect', location: `${pathname}/${search}` };
  const match = RETRIEVE.exec(rest);
  if (!match) return null;
  if (match[2] === '') return { kind: 'redirect', location: `${pathname}/${search}` };
  const id = decodePathSegment(match[1]!);
  return id === null ? { kind: 'not-found' } : { kind: 'retrieve', id };
}

/** The mount prefix without its trailing slash: `/api/v1/` and `/api/v1` are both `/api/v1`; `/` is `''`. */
export function mountPrefix(basePath: string): string {
  return basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
}

function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
