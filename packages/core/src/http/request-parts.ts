import type { ResolvedHandlerOptions } from './handler-options.js';
import type { PapersRequest } from './types.js';

/** The origin links start with: the configured base URL, else the request's own. */
export function linkOrigin(config: ResolvedHandlerOptions, request: PapersRequest): string {
  if (config.baseUrl !== null) return config.baseUrl;
  if (request.origin) return request.origin;
  const host = header(request, 'host');
  return `http://${host ?? 'localhost'}`;
}

/** `host[:port]` the request was made for: from the adapter's origin, else the Host header. */
export function requestHost(request: PapersRequest): string | undefined {
  if (request.origin) {
    const start = request.origin.indexOf('//');
    return start === -1 ? request.origin : request.origin.slice(start + 2);
  }
  return header(request, 'host');
}

/** A request header by name, the first value when repeated. */
export function header(request: PapersRequest, name: string): string | undefined {
  const direct = request.headers[name];
  const value =
    direct !== undefined
      ? direct
      : Object.entries(request.headers).find(([key]) => key.toLowerCase() === name)?.[1];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value[0];
}
