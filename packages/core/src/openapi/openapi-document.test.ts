import { readFile } from 'node:fs/promises';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { makePaper } from '../../test/make-paper.js';
import { API_ERRORS, errorDetail, type ApiErrorCode } from '../http/api-errors.js';
import { EXTENSION_PARAMETERS } from '../filters/extension-params.js';
import { createPapersHandler } from '../http/papers-handler.js';
import { createMemorySource } from '../memory/memory-source.js';
import { ORDER_FIELDS } from '../ordering/parse-ordering.js';
import { LIST_QUERY_PARAMETERS } from '../query/parse-list-query.js';
import { MAX_QUERY_LENGTH } from '../text/parse-search.js';
import { createOpenApiDocument } from './create-openapi-document.js';
import type { JsonObject } from './json-schema.js';

const DOCS_OPENAPI = new URL('../../../../docs/openapi.json', import.meta.url);

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);

describe('createOpenApiDocument', () => {
  const document = createOpenApiDocument({ mount: '/api/v1' });

  it('is what docs/openapi.json holds (run `pnpm openapi` after changing the API)', async () => {
    const checkedIn = await readFile(DOCS_OPENAPI, 'utf8');
    expect(checkedIn).toBe(`${JSON.stringify(document, null, 2)}\n`);
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    // The validator dereferences in place: give it a copy.
    const result = await validate(structuredClone(document) as never, { validate: { errors: { colorize: false } } });
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
  });

  it('rejects a broken copy, so the validator really looks', async () => {
    const broken = structuredClone(document) as JsonObject;
    delete (broken.info as JsonObject).version;
    const result = await validate(broken as never, { validate: { errors: { colorize: false } } });
    expect(result.valid).toBe(false);
  });

  it('takes Paper from the catalogue schema, parameters from the parser, errors from API_ERRORS', () => {
    const paper = at(document, 'components', 'schemas', 'Paper') as JsonObject;
    expect(paper.required).toEqual(Object.keys(paper.properties as JsonObject));
    expect(paper.additionalProperties).toBe(false);
    const parameters = at(document, 'paths', '/papers/', 'get', 'parameters') as JsonObject[];
    expect(parameters.slice(0, LIST_QUERY_PARAMETERS.length).map((p) => p.name)).toEqual([...LIST_QUERY_PARAMETERS]);
    expect(parameters.slice(LIST_QUERY_PARAMETERS.length, -1).map((p) => p.name)).toEqual([...EXTENSION_PARAMETERS]);
    const without = at(createOpenApiDocument({ mount: '', extensions: false }), 'paths', '/papers/', 'get', 'parameters') as JsonObject[];
    expect(without.map((p) => p.name)).not.toContain('year');
    expect(at(parameters[0], 'schema', 'maxLength')).toBe(MAX_QUERY_LENGTH);
    for (const field of ORDER_FIELDS) expect(parameters[1]!.description).toContain(`\`${field}\``);
    const responses = at(document, 'components', 'responses') as JsonObject;
    for (const [code, { status }] of Object.entries(API_ERRORS)) {
      const detail = errorDetail(code as ApiErrorCode, 'POST');
      const name = Object.keys(responses).find((key) => JSON.stringify(responses[key]).includes(`"${code}"`));
      expect(name, code).toBeDefined();
      expect(at(document, 'paths', '/papers/', status === 405 ? 'post' : 'get', 'responses', String(status))).toEqual({
        $ref: `#/components/responses/${name}`,
      });
      expect(JSON.stringify(responses[name!])).toContain(JSON.stringify(detail));
    }
  });

  it('states the configured page sizes and the server', () => {
    const custom = createOpenApiDocument({ mount: '/pwc/', serverUrl: 'https://papers.example.org/', pageSize: 20, maxPageSize: 100 });
    expect(custom.servers).toEqual([{ url: 'https://papers.example.org/pwc' }]);
    const size = (at(custom, 'paths', '/papers/', 'get', 'parameters') as JsonObject[]).find((p) => p.name === 'items_per_page');
    expect(size?.schema).toMatchObject({ default: 20, maximum: 100 });
    expect(createOpenApiDocument({ mount: '' }).servers).toEqual([{ url: '/' }]);
  });
});

describe('{mount}/schema/', () => {
  const handle = createPapersHandler({ source: createMemorySource([makePaper({ id: 'a' })]), pageSize: 7, allowedHosts: ['h'] });
  const call = (method: string, url: string, headers: Record<string, string> = {}) =>
    handle({ method, url, headers: { host: 'h', ...headers }, basePath: '/api/v1', origin: 'http://h' });

  it('serves the document for this origin and configuration', async () => {
    const response = await call('GET', '/api/v1/schema/');
    expect(response?.status).toBe(200);
    expect(response?.headers).toMatchObject({ Allow: 'GET, HEAD, OPTIONS', Vary: 'Accept', 'Content-Type': 'application/json' });
    const served = JSON.parse(new TextDecoder().decode(response!.body!)) as JsonObject;
    expect(served).toEqual(createOpenApiDocument({ mount: '/api/v1', serverUrl: 'http://h', pageSize: 7 }));
    const etag = response!.headers.ETag!;
    expect(await call('GET', '/api/v1/schema/', { 'if-none-match': etag })).toMatchObject({ status: 304, body: null });
    const head = await call('HEAD', '/api/v1/schema/');
    expect(head).toMatchObject({ status: 200, body: null, headers: response!.headers });
  });

  it.each([
    ['OPTIONS', '/api/v1/schema/', {}, 200],
    ['POST', '/api/v1/schema/', {}, 405],
    ['GET', '/api/v1/schema/', { accept: 'image/png' }, 406],
    ['GET', '/api/v1/schema/', { accept: 'text/html' }, 200],
    ['GET', '/api/v1/schema?x=1', {}, 301],
  ])('%s %s %j: %i', async (method, url, headers, status) => {
    const response = await call(method, url, headers);
    expect(response?.status).toBe(status);
    if (status === 301) expect(response?.headers.Location).toBe('/api/v1/schema/?x=1');
  });

  it('leaves other paths alone', async () => {
    expect(await call('GET', '/api/v1/schema/x/')).toBeNull();
  });
});

describe('createOpenApiDocument with writes', () => {
  const document = createOpenApiDocument({ mount: '/api/v1', writes: true });

  it('is a valid OpenAPI 3.1 document with the write operations and their security schemes', async () => {
    const result = await validate(structuredClone(document) as never, { validate: { errors: { colorize: false } } });
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(at(document, 'paths', '/papers/{id}/', 'put', 'operationId')).toBe('putPaper');
    expect(Object.keys(at(document, 'paths', '/papers/{id}/', 'put', 'responses') as JsonObject)).toEqual(expect.arrayContaining(['200', '201', '400', '401', '413', '415', '503']));
    expect(at(document, 'paths', '/papers/{id}/', 'delete', 'operationId')).toBe('deletePaper');
    expect(at(document, 'paths', '/papers/', 'post', 'operationId')).toBe('writePapers');
    expect(at(document, 'paths', '/papers/{id}/', 'patch', 'responses', '405')).toBeDefined();
    expect(at(document, 'paths', '/papers/', 'put', 'responses', '405')).toBeDefined();
    expect(at(document, 'paths', '/papers/', 'post', 'security')).toEqual([{ tokenAuth: [] }, { bearerAuth: [] }]);
    expect(Object.keys(at(document, 'components', 'securitySchemes') as JsonObject)).toEqual(['tokenAuth', 'bearerAuth']);
    expect(at(document, 'paths', '/papers/', 'get', 'security')).toBeUndefined();
  });

  it('is what a handler with writes serves at /schema/; without writes nothing of it appears', async () => {
    const source = createMemorySource([makePaper({ id: 'a' })]);
    const served = await createPapersHandler({ source, writeToken: 'tok' })({ method: 'GET', url: '/api/v1/schema/', basePath: '/api/v1', headers: { host: 'localhost' } });
    const body = JSON.parse(new TextDecoder().decode(served!.body!)) as JsonObject;
    expect(at(body, 'paths', '/papers/', 'post', 'operationId')).toBe('writePapers');
    const readOnly = createOpenApiDocument({ mount: '/api/v1' });
    expect(at(readOnly, 'components', 'securitySchemes')).toBeUndefined();
    expect(at(readOnly, 'paths', '/papers/', 'post', 'operationId')).toBe('listPapersPostNotAllowed');
  });
});
