import { toJsonBytes } from '../../encoded-paper.js';
import { InvalidChangeError, type PaperChange, type WriteResult } from '../../writes/paper-changes.js';
import type { ApiErrorCode } from '../api-errors.js';
import { callSource } from '../call-source.js';
import type { ResolvedHandlerOptions } from '../handler-options.js';
import { CONTRACT_HEADERS, errorResponse, jsonResponse } from '../respond.js';
import type { PapersRoute } from '../route-papers-path.js';
import { sourceFailure } from '../source-failure.js';
import type { PapersRequest, PapersResponse } from '../types.js';
import { createAuthenticator } from './auth.js';
import { parseBulkLines } from './bulk-lines.js';
import { readPaperInput } from './paper-input.js';
import { bodyEncoding, mediaType, readBody } from './request-body.js';
import type { WriteConfig } from './write-options.js';

/** `Allow` of the list and of one paper when writes are on. */
export const WRITE_ALLOW = { list: 'GET, POST, HEAD, OPTIONS', retrieve: 'GET, PUT, DELETE, HEAD, OPTIONS' } as const;

/** Whether a method on a route is a write (`POST` on the list, `PUT`/`DELETE` on a paper); other methods keep their read-only answers. */
export function isWrite(route: PapersRoute, method: string): route is WriteRoute {
  return route.kind === 'list' ? method === 'POST' : (route.kind === 'retrieve' || route.kind === 'not-found') && (method === 'PUT' || method === 'DELETE');
}

/** The routes a write goes to. */
export type WriteRoute = Extract<PapersRoute, { kind: 'list' | 'retrieve' | 'not-found' }>;

/** Media types of a bulk body: JSON Lines under its common names. */
const BULK_TYPES: ReadonlySet<string> = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines']);

/** The routes of a write-enabled handler: `PUT`/`DELETE {mount}/papers/{id}/` and `POST {mount}/papers/`. */
export function createWriteRoutes(config: ResolvedHandlerOptions, writes: WriteConfig) {
  const authenticate = createAuthenticator(writes.check);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => jsonResponse(status, JSON.stringify(body), false, headers);
  const fail = (code: ApiErrorCode) => errorResponse(code, false);
  const write = async (request: PapersRequest, changes: readonly PaperChange[]): Promise<WriteResult | PapersResponse> => {
    try {
      return await callSource((options) => writes.source.write(changes, options), request.signal, config.timeoutMs);
    } catch (error) {
      if (error instanceof InvalidChangeError) return json(400, { non_field_errors: [error.reason] });
      return sourceFailure(config, request, error, fail);
    }
  };

  /** The body, decompressed, or the `413`/`415`/`400` that refuses it. */
  const body = async (request: PapersRequest, accepted: (type: string) => boolean): Promise<Uint8Array | PapersResponse> => {
    const type = header(request, 'content-type');
    if (!accepted(mediaType(type))) return json(415, { detail: `Unsupported media type "${type ?? ''}" in request.` });
    const encoding = bodyEncoding(header(request, 'content-encoding'));
    if (encoding === null) {
      return json(415, { detail: `Unsupported content encoding "${header(request, 'content-encoding') ?? ''}" in request: send it plain or gzip.` });
    }
    const tooLarge = () => json(413, { detail: `Request body too large: at most ${writes.maxBytes} bytes, received and decompressed.` });
    const declared = Number(header(request, 'content-length') ?? '0');
    if (declared > writes.maxBytes) return tooLarge();
    const read = await readBody(request.body, { maxBytes: writes.maxBytes, gzip: encoding === 'gzip' });
    if (!read.ok) return read.problem === 'too-large' ? tooLarge() : json(400, { detail: 'Malformed gzip body.' });
    return read.bytes;
  };

  const put = async (request: PapersRequest, id: string): Promise<PapersResponse> => {
    const bytes = await body(request, (type) => type === 'application/json');
    if (!(bytes instanceof Uint8Array)) return bytes;
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch (error) {
      return json(400, { detail: `JSON parse error - ${error instanceof SyntaxError ? error.message : 'the body is not valid UTF-8'}` });
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const given = (value as Record<string, unknown>)['id'];
      if (given === undefined) value = { ...value, id };
      else if (given !== id) return json(400, { id: [`Does not match the id in the path (${JSON.stringify(id)}).`] });
    }
    const input = readPaperInput(value);
    if (!input.ok) return json(400, input.errors);
    const result = await write(request, [{ op: 'upsert', paper: input.paper }]);
    if (!isWriteResult(result)) return result;
    // The stored paper, as a GET now answers it (the source may have normalised it).
    let stored;
    try {
      stored = await callSource((options) => writes.source.get(id, options), request.signal, config.timeoutMs);
    } catch (error) {
      return sourceFailure(config, request, error, fail);
    }
    return jsonResponse(result.created > 0 ? 201 : 200, toJsonBytes(stored ?? input.paper), false);
  };

  const remove = async (request: PapersRequest, id: string): Promise<PapersResponse> => {
    // An absent id is a 404 without a write (no batch to build, journal or wait for).
    try {
      if ((await callSource((options) => writes.source.get(id, options), request.signal, config.timeoutMs)) === null) return fail('not-found');
    } catch (error) {
      return sourceFailure(config, request, error, fail);
    }
    const result = await write(request, [{ op: 'delete', id }]);
    if (!isWriteResult(result)) return result;
    if (result.deleted === 0) return fail('not-found');
    const { 'Content-Type': _type, ...headers } = CONTRACT_HEADERS;
    return { status: 204, headers: { ...headers, Allow: WRITE_ALLOW.retrieve }, body: null };
  };

  const bulk = async (request: PapersRequest): Promise<PapersResponse> => {
    const bytes = await body(request, (type) => BULK_TYPES.has(type));
    if (!(bytes instanceof Uint8Array)) return bytes;
    const parsed = parseBulkLines(bytes);
    if (!parsed.ok) {
      const detail = `${parsed.invalid} invalid line${parsed.invalid === 1 ? '' : 's'}: nothing was applied.`;
      return json(400, { detail, lines: parsed.lines });
    }
    if (parsed.changes.length === 0) return json(200, { created: 0, updated: 0, deleted: 0 });
    const result = await write(request, parsed.changes);
    if (!isWriteResult(result)) return result;
    return json(200, { created: result.created, updated: result.updated, deleted: result.deleted });
  };

  /**
   * Answers a write ({@link isWrite}): `401` without valid credentials, then the write itself.
   * Always JSON (never the HTML view).
   */
  return async (request: PapersRequest, route: WriteRoute, method: string): Promise<PapersResponse> => {
    const authorization = header(request, 'authorization');
    const refused = await authenticate(request, authorization);
    if (refused !== null) return json(401, { detail: refused }, { 'WWW-Authenticate': 'Token' });
    if (route.kind === 'list') return bulk(request);
    if (route.kind === 'not-found') return fail('not-found');
    return method === 'PUT' ? put(request, route.id) : remove(request, route.id);
  };
}

function isWriteResult(value: WriteResult | PapersResponse): value is WriteResult {
  return typeof (value as WriteResult).created === 'number';
}

/** A request header by name (any case), the first value when repeated. */
function header(request: PapersRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(request.headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value[0];
  }
  return undefined;
}
