import { DEFAULT_MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../http/handler-options.js';
import { CONTRACT_HEADERS } from '../http/respond.js';
import { componentSchemas } from './component-schemas.js';
import { errorResponseComponents, errorResponseName, errorStatuses } from './error-responses.js';
import { componentRef, type JsonObject } from './json-schema.js';
import { detailParameters, fieldErrorsSchema, formatParameter, listParameters } from './list-parameters.js';
import { writeComponents, writeOperations } from './write-operations.js';

/** Options of {@link createOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /** Prefix the paths are mounted under, e.g. `/api/v1`; `''` for none. */
  mount: string;
  /**
   * `scheme://host[:port]` (optionally with a path prefix) the API is reached at. Without it
   * the document's server is the mount path alone, relative to wherever the document is read.
   */
  serverUrl?: string;
  /** Default page size stated for `items_per_page`. Default 50. */
  pageSize?: number;
  /** Largest page size stated for `items_per_page`. Default 500. */
  maxPageSize?: number;
  /** Whether the extension parameters (`published_after`, `author`, `venue`…) are documented, as the handler's `extensions`. Default true. */
  extensions?: boolean;
  /**
   * Whether the write operations (`PUT`/`DELETE` a paper, `POST` a batch) are documented, with
   * their security schemes, as on a handler with `writeToken` or `authorize`. Default false: the
   * read-only document, where those methods are `405`.
   */
  writes?: boolean;
}

/** The methods the API refuses with 405; documented so every status the API answers is. */
const REFUSED_METHODS = ['post', 'put', 'patch', 'delete'] as const;

/**
 * The OpenAPI 3.1 document of the papers API, generated from the definitions the code runs on:
 * `Paper` is the catalogue's TypeBox schema, the parameters and their limits come from the
 * query parser's constants, the error statuses and details from `API_ERRORS`.
 *
 * @example
 * const document = createOpenApiDocument({ mount: '/api/v1', serverUrl: 'https://papers.example.org' });
 */
export function createOpenApiDocument(options: OpenApiDocumentOptions): JsonObject {
  const mount = options.mount.replace(/\/+$/, '');
  const sizes = {
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
  };
  const serverUrl = `${options.serverUrl?.replace(/\/+$/, '') ?? ''}${mount}` || '/';
  const contract = { Allow: componentRef('headers', 'Allow'), Vary: componentRef('headers', 'Vary') };
  const cached = { ...contract, ETag: componentRef('headers', 'ETag') };
  const errorsOf = (forGet: boolean): JsonObject => {
    const responses: JsonObject = {};
    for (const status of errorStatuses().keys()) {
      if ((status === 405) === forGet) continue;
      responses[String(status)] = componentRef('responses', errorResponseName(status));
    }
    return responses;
  };
  const bodyless = (responses: JsonObject): JsonObject => {
    const out: JsonObject = {};
    for (const [status, response] of Object.entries(responses)) {
      const ref = (response as JsonObject).$ref;
      const name = typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : status;
      out[status] = { description: `As GET (${name}), without a body.`, headers: (response as JsonObject).headers ?? contract };
    }
    return out;
  };
  const read = (id: string, summary: string, ok: JsonObject, parameters: JsonObject[]): JsonObject => {
    const get = { '200': ok, '304': componentRef('responses', 'NotModified'), ...errorsOf(true) };
    return {
      get: { operationId: id, summary, tags: ['papers'], parameters, responses: get },
      head: {
        operationId: `${id}Head`,
        summary: `${summary} (headers only)`,
        tags: ['papers'],
        parameters,
        responses: bodyless({ '200': { headers: cached }, '304': { headers: cached }, ...errorsOf(true) }),
      },
      options: {
        operationId: `${id}Options`,
        summary: 'What this endpoint is and what it speaks',
        tags: ['papers'],
        responses: {
          '200': { description: 'Metadata.', headers: contract, content: { 'application/json': { schema: componentRef('schemas', 'Metadata') } } },
          '404': componentRef('responses', 'NotFound'),
          '406': componentRef('responses', 'NotAcceptable'),
        },
      },
      ...refused(id),
    };
  };
  const writes = options.writes === true ? writeOperations(contract) : null;
  const html = { 'text/html': { schema: { type: 'string', description: 'The browsable page (when `text/html` is preferred).' } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'paperlist: Papers with Code API v1',
      version: 'v1',
      description:
        'A research-paper catalogue with the interface of the Papers with Code API v1, as served by paperlist. ' +
        'Every answer carries `Allow: GET, HEAD, OPTIONS` and `Vary: Accept`; browsers that prefer `text/html` get a ' +
        'browsable page unless `?format=json` is given.',
    },
    servers: [{ url: serverUrl }],
    // Reads are public: no authentication, except on the write operations (their own `security`).
    security: [],
    tags: [{ name: 'papers', description: 'Search, list and read papers.' }, { name: 'schema', description: 'This document.' }],
    paths: {
      '/papers/': withWrites(writes?.list, read(
        'listPapers',
        'Search and list papers, one page at a time',
        {
          description: 'One page of papers.',
          headers: cached,
          content: {
            'application/json': { schema: componentRef('schemas', 'PaperList') },
            ...html,
            ...((options.extensions ?? true) ? { 'application/x-ndjson': EXPORT_CONTENT } : {}),
          },
        },
        [...listParameters(sizes, options.extensions ?? true), componentRef('parameters', 'format')],
      )),
      '/papers/{id}/': {
        parameters: [componentRef('parameters', 'id')],
        ...withWrites(writes?.retrieve, read(
          'getPaper',
          'One paper by its id',
          {
            description: 'The paper.',
            headers: cached,
            content: { 'application/json': { schema: componentRef('schemas', 'Paper') }, ...html },
          },
          [...detailParameters(options.extensions ?? true), componentRef('parameters', 'format')],
        )),
      },
      ...((options.extensions ?? true) ? annotationPaths(read, sizes, html) : {}),
      '/papers': redirect('listPapersRedirect', []),
      '/papers/{id}': redirect('getPaperRedirect', [componentRef('parameters', 'id')]),
      '/schema/': {
        get: {
          operationId: 'getSchema',
          summary: 'This OpenAPI document',
          tags: ['schema'],
          responses: {
            '200': { description: 'The OpenAPI 3.1 document.', headers: cached, content: { 'application/json': { schema: { type: 'object' } } } },
            '304': componentRef('responses', 'NotModified'),
            '406': componentRef('responses', 'NotAcceptable'),
          },
        },
        head: {
          operationId: 'getSchemaHead',
          summary: 'This OpenAPI document (headers only)',
          tags: ['schema'],
          responses: bodyless({ '200': { headers: cached }, '304': { headers: cached }, '406': componentRef('responses', 'NotAcceptable') }),
        },
        options: {
          operationId: 'getSchemaOptions',
          summary: 'What this endpoint is and what it speaks',
          tags: ['schema'],
          responses: {
            '200': { description: 'Metadata.', headers: contract, content: { 'application/json': { schema: componentRef('schemas', 'Metadata') } } },
            '406': componentRef('responses', 'NotAcceptable'),
          },
        },
        ...refused('getSchema'),
      },
    },
    components: {
      schemas: { ...componentSchemas(), FieldErrors: fieldErrorsSchema(), ...(writes === null ? {} : writeComponents(componentSchemas()['Paper'] as JsonObject).schemas) },
      ...(writes === null ? {} : { securitySchemes: writeComponents({}).securitySchemes }),
      parameters: {
        id: { name: 'id', in: 'path', required: true, description: 'The paper id.', schema: { type: 'string', examples: ['attention-is-all-you-need'] } },
        format: formatParameter(options.extensions ?? true),
        ...((options.extensions ?? true)
          ? {
              taskId: {
                name: 'id',
                in: 'path',
                required: true,
                description: 'The task: its slug (`image-classification`) or its name (`Image Classification`), matched by slug.',
                schema: { type: 'string', examples: ['image-classification'] },
              },
            }
          : {}),
      },
      headers: {
        Allow:
          writes === null
            ? { description: 'The methods every path answers.', required: true, schema: { type: 'string', const: CONTRACT_HEADERS.Allow! } }
            : writeComponents({}).allow,
        Vary: { description: 'Answers depend on `Accept`.', required: true, schema: { type: 'string', const: CONTRACT_HEADERS.Vary! } },
        ETag: { description: 'Strong tag of the answer, when the source has a version; send it back in `If-None-Match`.', schema: { type: 'string' } },
        Location: { description: 'The same path with a trailing slash, query kept.', required: true, schema: { type: 'string' } },
      },
      responses: {
        NotModified: { description: 'The answer has not changed since the `ETag` in `If-None-Match`.', headers: cached },
        MovedPermanently: {
          description: 'The path without its trailing slash: go to `Location`.',
          headers: { ...contract, Location: componentRef('headers', 'Location') },
          content: { 'application/json': { schema: componentRef('schemas', 'Error') } },
        },
        ...errorResponseComponents(contract),
      },
    },
  };
}

type ReadOperations = (id: string, summary: string, ok: JsonObject, parameters: JsonObject[]) => JsonObject;

/** The routes of papers' tasks and methods (with the extensions on). */
function annotationPaths(read: ReadOperations, sizes: { pageSize: number; maxPageSize: number }, html: JsonObject): JsonObject {
  const paging = listParameters(sizes, false).filter((parameter) => parameter['name'] === 'page' || parameter['name'] === 'items_per_page');
  const page = (schema: string, description: string): JsonObject => ({
    description,
    headers: { Allow: componentRef('headers', 'Allow'), Vary: componentRef('headers', 'Vary'), ETag: componentRef('headers', 'ETag') },
    content: { 'application/json': { schema: componentRef('schemas', schema) } },
  });
  return {
    '/papers/{id}/tasks/': {
      parameters: [componentRef('parameters', 'id')],
      ...read('listPaperTasks', "A paper's tasks (from the Papers with Code dump), one page at a time", page('TaskList', 'One page of the tasks; 404 for an unknown paper.'), paging),
    },
    '/papers/{id}/methods/': {
      parameters: [componentRef('parameters', 'id')],
      ...read('listPaperMethods', "A paper's methods (from the Papers with Code dump), one page at a time", page('MethodList', 'One page of the methods; 404 for an unknown paper.'), paging),
    },
    '/tasks/{id}/papers/': {
      parameters: [componentRef('parameters', 'taskId')],
      ...read(
        'listTaskPapers',
        'The papers of a task: the list with `task={id}` (every list parameter applies; the path\'s task replaces a `task=`)',
        { ...page('PaperList', 'One page of the papers; 404 when no paper has the task.'), content: { 'application/json': { schema: componentRef('schemas', 'PaperList') }, ...html } },
        [...listParameters(sizes, true).filter((parameter) => parameter['name'] !== 'task'), componentRef('parameters', 'format')],
      ),
    },
    '/papers/{id}/tasks': redirect('listPaperTasksRedirect', [componentRef('parameters', 'id')]),
    '/papers/{id}/methods': redirect('listPaperMethodsRedirect', [componentRef('parameters', 'id')]),
    '/tasks/{id}/papers': redirect('listTaskPapersRedirect', [componentRef('parameters', 'taskId')]),
  };
}

// The write operations replace the 405s of their methods.
function withWrites(operations: JsonObject | undefined, path: JsonObject): JsonObject {
  return operations === undefined ? path : { ...path, ...operations };
}

// A path without its trailing slash: 301 to the slashed one, whatever the method.
function redirect(id: string, parameters: JsonObject[]): JsonObject {
  const responses = { '301': componentRef('responses', 'MovedPermanently') };
  return {
    ...(parameters.length === 0 ? {} : { parameters }),
    get: { operationId: id, summary: 'Redirects to the path with a trailing slash', tags: ['papers'], responses },
    head: { operationId: `${id}Head`, summary: 'Redirects to the path with a trailing slash', tags: ['papers'], responses },
  };
}

// The read-only API answers 405 to these methods (after 406, and 404 for an unknown `format`).
function refused(id: string): JsonObject {
  const operations: JsonObject = {};
  for (const method of REFUSED_METHODS) {
    operations[method] = {
      operationId: `${id}${method[0]!.toUpperCase()}${method.slice(1)}NotAllowed`,
      summary: 'Not allowed: the API is read-only',
      tags: [id === 'getSchema' ? 'schema' : 'papers'],
      responses: {
        ...(id === 'getSchema' ? {} : { '404': componentRef('responses', 'NotFound') }),
        '405': componentRef('responses', errorResponseName(405)),
        '406': componentRef('responses', 'NotAcceptable'),
      },
    };
  }
  return operations;
}

/** The export (`format=jsonl`): every matching paper as one line of JSON. */
const EXPORT_CONTENT: JsonObject = {
  schema: {
    type: 'string',
    description:
      'The export (`format=jsonl` or `Accept: application/x-ndjson`): every matching paper, one JSON object per line ' +
      '(the fields of `Paper`, or those `fields`/`omit` select), streamed in the ordering, without paging. A search ' +
      '(`q`) needs an explicit `ordering`.',
  },
};
