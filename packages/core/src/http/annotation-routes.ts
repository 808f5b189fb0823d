import { nameSlug, type PaperAnnotations } from '../annotations/annotations.js';
import { buildPageLinks, pageCount } from '../pagination/page-links.js';
import { parseListQuery, type ListRequest } from '../query/parse-list-query.js';
import type { QueryPair } from '../query/query-string.js';
import type { ApiErrorCode } from './api-errors.js';
import { callSource } from './call-source.js';
import type { ResolvedHandlerOptions } from './handler-options.js';
import { jsonResponse } from './respond.js';
import type { PapersRoute } from './route-papers-path.js';
import type { PapersRequest, PapersResponse } from './types.js';

/*
 * The routes of papers' tasks and methods (from the Papers with Code dump), in the original
 * API's shapes, so its Python client's `paper_task_list`, `paper_method_list` and task paper
 * lists parse them:
 * - `{mount}/papers/{id}/tasks/`: the paper's tasks, a page of `Task` `{id, name, description}`;
 * - `{mount}/papers/{id}/methods/`: its methods, a page of `Method` `{id, name, full_name,
 *   description, paper, introduced_year, source_url, source_title, code_snippet_url}`;
 * - `{mount}/tasks/{id}/papers/`: the papers of a task: the list (`task={id}`), every list
 *   parameter applying.
 * Pages are the list's (`page`, `items_per_page`, `count`/`next`/`previous`/`results`). An id is
 * a task's or method's slug (see `nameSlug`). Unknown paper or task: 404 `{"detail":"Not found."}`.
 */

/** A route of this file. */
export type AnnotationRoute = Extract<PapersRoute, { kind: 'paper-tasks' | 'paper-methods' | 'task-papers' }>;

/** Whether `route` is one of the routes of tasks and methods. */
export function isAnnotationRoute(route: PapersRoute): route is AnnotationRoute {
  return route.kind === 'paper-tasks' || route.kind === 'paper-methods' || route.kind === 'task-papers';
}

/** The original API's `Task`. The dump has no task descriptions: `description` is empty. */
export interface TaskBody {
  id: string;
  name: string;
  description: string;
}

/** The original API's `Method` (`paper`, the paper that introduced it, is not in the dump: null). */
export interface MethodBody {
  id: string;
  name: string;
  full_name: string;
  description: string;
  paper: string | null;
  introduced_year: number | null;
  source_url: string | null;
  source_title: string | null;
  code_snippet_url: string | null;
}

/** A paper's tasks as the original API's `Task` objects. */
export function taskBodies(annotations: PaperAnnotations): TaskBody[] {
  return annotations.tasks.map((name) => ({ id: nameSlug(name), name, description: '' }));
}

/** A paper's methods as the original API's `Method` objects (missing texts empty: the client requires strings). */
export function methodBodies(annotations: PaperAnnotations): MethodBody[] {
  return annotations.methods.map((method) => ({
    id: nameSlug(method.name),
    name: method.name,
    full_name: method.full_name ?? '',
    description: method.description ?? '',
    paper: null,
    introduced_year: method.introduced_year,
    source_url: method.source_url,
    source_title: method.source_title,
    code_snippet_url: method.code_snippet_url,
  }));
}

/** What the handler has already worked out for the request. */
export interface AnnotationAnswer {
  pairs: readonly QueryPair[];
  pathname: string;
  origin: string;
  isHead: boolean;
  cacheHeaders: Record<string, string>;
  fail: (code: ApiErrorCode) => PapersResponse;
  /** Answers a list request as `{mount}/papers/` does. */
  list: (list: ListRequest) => Promise<PapersResponse>;
}

/** Answers a `GET`/`HEAD` of one of the routes of tasks and methods. */
export async function answerAnnotationRoute(config: ResolvedHandlerOptions, request: PapersRequest, route: AnnotationRoute, answer: AnnotationAnswer): Promise<PapersResponse> {
  const { fail } = answer;
  if (route.kind === 'task-papers') {
    const parsed = parseListQuery(answer.pairs, config);
    if (!parsed.ok) return fail(parsed.error);
    const slug = nameSlug(route.id);
    // A task is known when a paper has it.
    const probe = parseListQuery([], config);
    if (slug === '' || !probe.ok) return fail('not-found');
    const known = await callSource(
      (options) => config.source.list({ terms: [], filters: { tasks: [slug] }, ordering: probe.request.ordering, offset: 0, limit: 0 }, options),
      request.signal,
      config.timeoutMs,
    );
    if (known.count === 0) return fail('not-found');
    // The path's task replaces a `task=` of the query; every other list parameter applies.
    return answer.list({ ...parsed.request, filters: { ...parsed.request.filters, tasks: [slug] } });
  }

  // Paging only: filters and search mean nothing here.
  const parsed = parseListQuery(answer.pairs, { pageSize: config.pageSize, maxPageSize: config.maxPageSize });
  if (!parsed.ok) return fail(parsed.error);
  const source = config.source;
  const found = await callSource(
    async (options): Promise<PaperAnnotations | null> => {
      if (source.annotations !== undefined) return source.annotations(route.id, options);
      return (await source.get(route.id, options)) === null ? null : { tasks: [], methods: [] };
    },
    request.signal,
    config.timeoutMs,
  );
  if (found === null) return fail('not-found');
  const items: (TaskBody | MethodBody)[] = route.kind === 'paper-tasks' ? taskBodies(found) : methodBodies(found);
  const { pageSize } = parsed.request;
  const lastPage = pageCount(items.length, pageSize);
  const page = parsed.request.page === 'last' ? lastPage : parsed.request.page;
  if (page > lastPage) return fail('invalid-page');
  const links = buildPageLinks({ origin: answer.origin, path: answer.pathname, pairs: parsed.request.pairs }, page, lastPage);
  const results = items.slice((page - 1) * pageSize, page * pageSize);
  const body = `{"count":${items.length},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":${JSON.stringify(results)}}`;
  return jsonResponse(200, body, answer.isHead, answer.cacheHeaders);
}
