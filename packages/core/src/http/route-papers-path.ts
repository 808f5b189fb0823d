/** What a request path asks for. */
export type PapersRoute =
  | { kind: 'list' }
  | { kind: 'retrieve'; id: string }
  | { kind: 'schema' }
  | { kind: 'paper-tasks'; id: string }
  | { kind: 'paper-methods'; id: string }
  | { kind: 'task-papers'; id: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' };

const RETRIEVE = /^\/papers\/([^/]+)(\/?)$/;
const PAPER_ANNOTATIONS = /^\/papers\/([^/]+)\/(tasks|methods)(\/?)$/;
const TASK_PAPERS = /^\/tasks\/([^/]+)\/papers(\/?)$/;

/**
 * Routes a path below the mount: `/papers/` lists, `/papers/{id}/` retrieves, `/schema/` is the
 * OpenAPI document; with `annotations` (the extensions on), `/papers/{id}/tasks/`,
 * `/papers/{id}/methods/` and `/tasks/{id}/papers/` too. Each without the trailing slash
 * redirects to it (query kept). Anything else is not ours (`null`).
 *
 * @param pathname the request path as received (percent-encoded), without the query
 * @param basePath the mount prefix, `''` for none
 * @param search the raw query including `?`, or `''`
 */
export function routePapersPath(pathname: string, basePath: string, search: string, annotations = true): PapersRoute | null {
  const base = mountPrefix(basePath);
  if (!pathname.startsWith(base)) return null;
  const rest = pathname.slice(base.length);
  if (rest === '/papers/') return { kind: 'list' };
  if (rest === '/papers') return { kind: 'redirect', location: `${pathname}/${search}` };
  if (rest === '/schema/') return { kind: 'schema' };
  if (rest === '/schema') return { kind: 'redirect', location: `${pathname}/${search}` };
  const match = RETRIEVE.exec(rest);
  if (!match) return annotations ? routeAnnotations(rest, pathname, search) : null;
  if (match[2] === '') return { kind: 'redirect', location: `${pathname}/${search}` };
  const id = decodePathSegment(match[1]!);
  return id === null ? { kind: 'not-found' } : { kind: 'retrieve', id };
}

/** The routes of papers' tasks and methods (see `annotation-routes.ts`). */
function routeAnnotations(rest: string, pathname: string, search: string): PapersRoute | null {
  const paper = PAPER_ANNOTATIONS.exec(rest);
  const task = paper === null ? TASK_PAPERS.exec(rest) : null;
  if (paper === null && task === null) return null;
  const slash = paper !== null ? paper[3] : task![2];
  if (slash === '') return { kind: 'redirect', location: `${pathname}/${search}` };
  const id = decodePathSegment((paper ?? task)![1]!);
  if (id === null) return { kind: 'not-found' };
  if (task !== null) return { kind: 'task-papers', id };
  return { kind: paper![2] === 'tasks' ? 'paper-tasks' : 'paper-methods', id };
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
