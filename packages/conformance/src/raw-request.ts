import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** What {@link rawRequest} answers: the status, headers and body bytes exactly as received. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body decoded as UTF-8. */
  text: string;
}

/** Options of {@link rawRequest}. */
export interface RawRequestOptions {
  method?: string;
  /** Extra headers; `host` replaces the one Node would send. */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * One HTTP/1.1 request over `node:http` with the path sent byte for byte. `fetch` would
 * normalise the URL (fix malformed percent-encoding, drop control characters) and hide HEAD
 * details; this does not.
 *
 * @param origin `http://127.0.0.1:PORT`
 * @param path path and raw query, e.g. `/api/v1/papers/?q=%ZZ`
 */
export function rawRequest(origin: string, path: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        path,
        method: options.method ?? 'GET',
        // Node sends DELETE and OPTIONS bodies without framing unless told the length.
        headers: {
          connection: 'close',
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The path and query of an absolute link, to request it again with {@link rawRequest}. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
