import fc from 'fast-check';
import { createPapersHandler, type PapersHandler } from '../../src/index.js';
import { createMemorySource } from '../../src/memory/memory-source.js';
import { DOCUMENTED_STATUSES, headers, method, rawQueryString, requestPath } from './http-arbitraries.js';
import type { Paper } from '../../src/paper.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Checks one answer against the contract's invariants; throws with a reason when broken. */
export function assertContract(status: number, responseHeaders: Record<string, string>, body: Uint8Array | null, isHead: boolean): void {
  if (!DOCUMENTED_STATUSES.has(status)) throw new Error(`undocumented status ${status}`);
  if (responseHeaders.Allow !== 'GET, HEAD, OPTIONS') throw new Error('missing Allow');
  if (responseHeaders.Vary !== 'Accept') throw new Error('missing Vary');
  if (responseHeaders['Content-Type'] === 'application/x-ndjson') {
    // The export: a stream, checked by the property as it reads it.
    if (status !== 200 || (body !== null && !isHead)) throw new Error('export without its stream');
    return;
  }
  if (!responseHeaders['Content-Type']?.startsWith('application/json') && !responseHeaders['Content-Type']?.startsWith('text/html')) {
    throw new Error(`bad Content-Type ${responseHeaders['Content-Type']}`);
  }
  if (status === 304 || isHead) {
    if (body !== null) throw new Error('body on HEAD/304');
    return;
  }
  if (body === null) throw new Error('no body');
  if (responseHeaders['Content-Length'] !== String(body.byteLength)) throw new Error('wrong Content-Length');
  if (!responseHeaders['Content-Type']!.startsWith('application/json')) return;
  const json = JSON.parse(decoder.decode(body)) as Record<string, unknown>;
  // A 400 for invalid filter values is django-filter's messages by parameter instead.
  const fieldErrors = status === 400 && Object.keys(json).length > 0 && Object.values(json).every((v) => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string'));
  if (status >= 400 && !fieldErrors && (typeof json.detail !== 'string' || json.detail === '')) throw new Error('error without detail');
  if (status === 200 && 'count' in json && (!Array.isArray(json.results) || typeof json.count !== 'number')) {
    throw new Error('malformed list');
  }
}

/** A property: any request gets a documented answer in time, never a throw. */
export function contractProperty(papers: readonly Paper[]) {
  const handle: PapersHandler = createPapersHandler({ source: createMemorySource(papers) });
  return fc.asyncProperty(requestPath, rawQueryString, method, headers, async (path, query, verb, requestHeaders) => {
    const url = query === '' ? path : `${path}?${query}`;
    const answer = await withDeadline(handle({ method: verb, url, headers: requestHeaders, basePath: '/api/v1' }), 5_000);
    if (answer === null) {
      if (path.startsWith('/api/v1/papers')) {
        // Only paths that are not a papers route may be handed on.
        if (/^\/api\/v1\/papers\/?$/.test(path) || /^\/api\/v1\/papers\/[^/]+\/?$/.test(path)) throw new Error(`handed on ${url}`);
      }
      return;
    }
    assertContract(answer.status, answer.headers, answer.body, verb.toUpperCase() === 'HEAD');
    if (answer.stream !== undefined) {
      // An export's lines are JSON objects; its first chunks are read (the rest would only repeat them).
      let chunks = 0;
      for await (const chunk of answer.stream) {
        for (const line of decoder.decode(chunk).split('\n').slice(0, -1)) JSON.parse(line);
        if (++chunks === 2) break;
      }
    }
  });
}

async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
