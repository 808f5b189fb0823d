import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePapers, type PapersServer } from '../../test/browser/serve-papers.js';
import { createMemorySource } from '../memory/memory-source.js';
import { loadSamplePapers } from '../sample.js';
import type { PaperSource } from '../source.js';
import { createOpenApiDocument } from './create-openapi-document.js';
import type { JsonObject } from './json-schema.js';

// ajv-formats is CommonJS with `exports.default`; NodeNext types the default import as the module.
type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

const MOUNT = '/api/v1';
const document = createOpenApiDocument({ mount: MOUNT });
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The whole document under one id, so a `$ref` may point anywhere inside it.
ajv.addSchema(document, 'openapi');

const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validator = validators.get(pointer);
  if (validator === undefined) {
    validator = ajv.compile({ $ref: `openapi#${pointer}` });
    validators.set(pointer, validator);
  }
  return validator;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

function resolve(node: JsonObject, pointer: string): { node: JsonObject; pointer: string } {
  const ref = node.$ref;
  if (typeof ref !== 'string') return { node, pointer };
  const target = ref.slice(1);
  const resolved = target
    .split('/')
    .slice(1)
    .reduce<JsonObject>((at, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')] as JsonObject, document);
  return resolve(resolved, target);
}

/** The document's path template matching a request path below the mount. */
function pathTemplate(pathname: string): string {
  const rest = pathname.slice(MOUNT.length);
  const templates = Object.keys(document.paths as JsonObject);
  const match = templates.find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(rest));
  if (match === undefined) throw new Error(`no path of the document matches ${rest}`);
  return match;
}

/**
 * Checks a real response against the document: the operation of its path and method declares
 * its status; its required headers are there with valid values; its body is valid JSON for the
 * declared schema (or HTML where text/html is declared); a HEAD or 304 has no body.
 */
async function expectDocumented(method: string, url: string, response: Response): Promise<void> {
  const template = pathTemplate(new URL(url).pathname);
  const operationPointer = `/paths/${escapePointer(template)}/${method.toLowerCase()}`;
  const operation = (document.paths as JsonObject)[template] as JsonObject;
  const responses = (operation[method.toLowerCase()] as JsonObject | undefined)?.responses as JsonObject | undefined;
  expect(responses, `${method} ${template} is documented`).toBeDefined();
  const declared = responses![String(response.status)] as JsonObject | undefined;
  expect(declared, `${method} ${template} declares ${response.status}`).toBeDefined();
  const { node: responseObject, pointer } = resolve(declared!, `${operationPointer}/responses/${response.status}`);

  for (const [name, headerRef] of Object.entries((responseObject.headers ?? {}) as JsonObject)) {
    const { node: header, pointer: headerPointer } = resolve(headerRef as JsonObject, `${pointer}/headers/${escapePointer(name)}`);
    const value = response.headers.get(name);
    if (header.required === true) expect(value, `header ${name}`).not.toBeNull();
    if (value !== null) {
      const check = validatorAt(`${headerPointer}/schema`);
      expect(check(value), `header ${name}: ${ajv.errorsText(check.errors)}`).toBe(true);
    }
  }

  const body = await response.text();
  const content = responseObject.content as JsonObject | undefined;
  if (method === 'HEAD' || response.status === 304 || content === undefined) {
    expect(body).toBe('');
    return;
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  expect(Object.keys(content), `${response.status} declares ${mediaType}`).toContain(mediaType);
  const check = validatorAt(`${pointer}/content/${escapePointer(mediaType)}/schema`);
  const value: unknown = mediaType === 'application/json' ? JSON.parse(body) : body;
  expect(check(value), `${method} ${url} ${response.status}: ${ajv.errorsText(check.errors)}`).toBe(true);
}

const FAILING: PaperSource = {
  list: () => Promise.reject(new Error('database down')),
  get: () => Promise.reject(new Error('database down')),
};

describe('real responses of every status validate against the OpenAPI document (ajv, 2020-12)', () => {
  let server: PapersServer;
  let broken: PapersServer;
  let paperId: string;
  beforeAll(async () => {
    const papers = await loadSamplePapers();
    paperId = papers.find((paper) => paper.arxiv_id !== null && paper.published !== null)!.id;
    server = await servePapers({ source: createMemorySource(papers, { version: 'sample' }), mount: MOUNT });
    broken = await servePapers({ source: FAILING, mount: MOUNT, onError: () => {} });
  });
  afterAll(async () => {
    await server?.close();
    await broken?.close();
  });

  const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  const cases: [status: number, method: string, path: string | (() => string), headers?: Record<string, string>][] = [
    [200, 'GET', '/papers/'],
    [200, 'GET', '/papers/?q=neural+network&ordering=-published&items_per_page=5&page=2'],
    [200, 'GET', '/papers/?q=zzzzqqq'],
    [200, 'GET', '/papers/?page=last&items_per_page=500'],
    [200, 'GET', '/papers/', HTML],
    [200, 'HEAD', '/papers/'],
    [200, 'OPTIONS', '/papers/'],
    [200, 'GET', () => `/papers/${paperId}/`],
    [200, 'GET', () => `/papers/${paperId}/`, HTML],
    [200, 'HEAD', () => `/papers/${paperId}/`],
    [200, 'OPTIONS', () => `/papers/${paperId}/`],
    [200, 'GET', '/schema/'],
    [200, 'OPTIONS', '/schema/'],
    [301, 'GET', '/papers?q=x'],
    [301, 'GET', () => `/papers/${paperId}`],
    [301, 'HEAD', '/papers'],
    [400, 'GET', `/papers/?q=${'x'.repeat(1001)}`],
    [400, 'GET', `/papers/?q=${Array.from({ length: 33 }, (_, i) => `t${i}`).join('+')}`],
    [400, 'GET', '/papers/?q=%ZZ'],
    [400, 'GET', '/papers/?q=a%01'],
    [400, 'GET', '/papers/?q=%ZZ', HTML],
    [400, 'GET', '/papers/?published_after=2019-02-30&year=x'],
    [400, 'GET', '/papers/?author=%21', HTML],
    [200, 'GET', '/papers/?year=2016-2020&author=neubig&venue=acl|emnlp&proceeding=acl-2018-7&published_before=2019-06'],
    [404, 'GET', '/papers/no-such-paper/'],
    [404, 'GET', '/papers/?page=99999'],
    [404, 'GET', '/papers/?page=0'],
    [404, 'GET', '/papers/?format=xml'],
    [404, 'GET', '/papers/no-such-paper/', HTML],
    [404, 'HEAD', '/papers/no-such-paper/'],
    [405, 'POST', '/papers/'],
    [405, 'DELETE', () => `/papers/${paperId}/`],
    [405, 'PUT', '/schema/'],
    [405, 'PATCH', '/papers/', HTML],
    [406, 'GET', '/papers/', { accept: 'application/xml' }],
    [406, 'GET', () => `/papers/${paperId}/`, { accept: 'image/png' }],
    [406, 'GET', '/schema/', { accept: 'text/csv' }],
  ];

  it.each(cases)('%i: %s %s %j', async (status, method, path, headers = {}) => {
    const url = `${server.origin}${MOUNT}${typeof path === 'string' ? path : path()}`;
    const response = await fetch(url, { method, headers, redirect: 'manual' });
    expect(response.status).toBe(status);
    await expectDocumented(method, url, response);
  });

  it.each([
    ['/papers/?q=bert', {}],
    ['/papers/?q=bert', HTML],
    [() => `/papers/${paperId}/`, {}],
    ['/schema/', {}],
  ])('304: %s %j', async (path, headers) => {
    const url = `${server.origin}${MOUNT}${typeof path === 'string' ? path : path()}`;
    const first = await fetch(url, { headers });
    const etag = first.headers.get('etag');
    expect(etag).not.toBeNull();
    const response = await fetch(url, { headers: { ...headers, 'if-none-match': etag! } });
    expect(response.status).toBe(304);
    await expectDocumented('GET', url, response);
  });

  it.each([
    ['GET', '/papers/', {}],
    ['GET', '/papers/x/', {}],
    ['GET', '/papers/', HTML],
    ['HEAD', '/papers/', {}],
  ])('503: %s %s %j', async (method, path, headers) => {
    const url = `${broken.origin}${MOUNT}${path}`;
    const response = await fetch(url, { method, headers });
    expect(response.status).toBe(503);
    await expectDocumented(method, url, response);
  });

  it('catches a response that breaks the document', async () => {
    const url = `${server.origin}${MOUNT}/papers/`;
    const forged = new Response(JSON.stringify({ count: -1, next: null, previous: null, results: [{ id: 'x' }] }), {
      status: 200,
      headers: { 'content-type': 'application/json', allow: 'GET, HEAD, OPTIONS', vary: 'Accept' },
    });
    await expect(expectDocumented('GET', url, forged)).rejects.toThrow(/count|results|must/);
    const wrongDetail = new Response(JSON.stringify({ detail: 'Nope.' }), {
      status: 404,
      headers: { 'content-type': 'application/json', allow: 'GET, HEAD, OPTIONS', vary: 'Accept' },
    });
    await expect(expectDocumented('GET', url, wrongDetail)).rejects.toThrow(/detail|must/);
  });
});
