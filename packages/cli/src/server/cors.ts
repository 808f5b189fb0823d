import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PapersResponse } from '@paperlist/core';

/** Response headers a browser script may read. */
const EXPOSED = 'ETag, Retry-After, Content-Encoding, X-Request-Id';
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * Cross-origin access for browser scripts (`--cors`): off unless origins are given; `*` lets any
 * origin read. GET, HEAD and OPTIONS are offered, and the write methods when writes are on (a
 * write still needs its token: CORS only lets the browser send it).
 */
export class Cors {
  private readonly any: boolean;
  private readonly origins: Set<string>;

  constructor(
    origins: readonly string[],
    private readonly methods = 'GET, HEAD, OPTIONS',
  ) {
    this.any = origins.includes('*');
    this.origins = new Set(origins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  }

  /** The `Access-Control-Allow-Origin` value for this request, or `null` when it may not read. */
  private allowed(req: IncomingMessage): string | null {
    const origin = req.headers.origin;
    if (origin === undefined) return null;
    if (this.any) return '*';
    return this.origins.has(origin.toLowerCase()) ? origin : null;
  }

  /** Answers a preflight request (`OPTIONS` with `Access-Control-Request-Method`); false for any other request. */
  preflight(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
    const allowed = this.allowed(req);
    res.statusCode = 204;
    if (allowed !== null) {
      res.setHeader('Access-Control-Allow-Origin', allowed);
      res.setHeader('Access-Control-Allow-Methods', this.methods);
      const asked = req.headers['access-control-request-headers'];
      if (asked !== undefined) res.setHeader('Access-Control-Allow-Headers', asked);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE);
    }
    if (!this.any) res.setHeader('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    res.end();
    return true;
  }

  /** The headers of a response to `req` (for responses written directly). */
  headers(req: IncomingMessage): Record<string, string> {
    const allowed = this.allowed(req);
    const headers: Record<string, string> = allowed === null ? {} : { 'Access-Control-Allow-Origin': allowed, 'Access-Control-Expose-Headers': EXPOSED };
    if (!this.any) headers['Vary'] = 'Origin';
    return headers;
  }

  /** The answer of the API with the CORS headers added (`Vary` merged). */
  answer(answer: PapersResponse, req: IncomingMessage): PapersResponse {
    const { Vary: vary, ...extra } = this.headers(req);
    const headers = { ...answer.headers, ...extra };
    if (vary !== undefined) headers['Vary'] = answer.headers['Vary'] === undefined ? vary : `${answer.headers['Vary']}, ${vary}`;
    return { ...answer, headers };
  }
}
