import type { LogFormat } from '../log.js';
import { jsonLines } from '../log.js';
import type { AccessLine } from './app.js';

/**
 * Writes one line per answered request to `stream`: `time method url status ms id` for people, or
 * a pino JSON object (`req.id`, `req.method`, `req.url`, `req.remoteAddress`, `req.userAgent`,
 * `res.statusCode`, `responseTime`) for log collectors.
 */
export function accessLog(format: LogFormat, stream: NodeJS.WritableStream): (line: AccessLine) => void {
  if (format === 'text') {
    return ({ method, url, status, ms, id }) => stream.write(`${new Date().toISOString()} ${method} ${url} ${status} ${ms.toFixed(1)}ms ${id}\n`);
  }
  const logger = jsonLines(stream, { name: 'paperlist-access' });
  return ({ id, method, url, status, ms, remoteAddress, userAgent }) =>
    logger.info({ req: { id, method, url, remoteAddress, userAgent }, res: { statusCode: status }, responseTime: Math.round(ms * 10) / 10 }, 'request completed');
}

/**
 * Warns once per host (up to 100 hosts) that requests for it were refused, naming the fix:
 * a server behind a new name answers 400 until it is told the name.
 */
export function rejectedHostWarning(warn: (message: string) => void): (host: string) => void {
  const seen = new Set<string>();
  return (host) => {
    if (seen.has(host) || seen.size >= 100) return;
    seen.add(host);
    warn(`refused a request for host ${JSON.stringify(host)} (400): if this server is meant to answer it, add --allowed-host ${hostName(host) || '<name>'} (or set --base-url)`);
  };
}

/** The host's name without its port. */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}
