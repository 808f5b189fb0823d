import type { PapersRequest } from '../types.js';
import type { WriteConfig } from './write-options.js';

/** Why a write was refused `401`, as the `detail` Django REST Framework's `TokenAuthentication` gives. */
export type AuthFailure =
  | 'Authentication credentials were not provided.'
  | 'Invalid token header. No credentials provided.'
  | 'Invalid token header. Token string should not contain spaces.'
  | 'Invalid token.';

const utf8 = new TextEncoder();

/**
 * The credentials of `Authorization: Token <t>` (the Papers with Code client's scheme) or
 * `Bearer <t>`, scheme case-insensitive. `null`: no such header (or another scheme);
 * a failure: the header is malformed, as DRF words it.
 */
export function readCredentials(authorization: string | undefined): string | null | { failure: AuthFailure } {
  if (authorization === undefined) return null;
  const parts = authorization.trim().split(/\s+/);
  const scheme = parts[0]?.toLowerCase();
  if (scheme !== 'token' && scheme !== 'bearer') return null;
  if (parts.length === 1) return { failure: 'Invalid token header. No credentials provided.' };
  if (parts.length > 2) return { failure: 'Invalid token header. Token string should not contain spaces.' };
  return parts[1]!;
}

/**
 * Whether two byte strings are equal, in time that depends only on their lengths' maximum: every
 * byte is compared, no early exit (neither on a difference nor on different lengths).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.byteLength, b.byteLength);
  let difference = a.byteLength ^ b.byteLength;
  for (let i = 0; i < length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}

/** SHA-256 of the UTF-8 bytes of `text`, with Web Crypto (Node 20, browsers, workers: no Node built-in). */
async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(text)));
}

/**
 * Checks a write's credentials. Tokens are compared as SHA-256 digests (32 bytes each, whatever
 * the lengths given) with {@link constantTimeEqual}, so the time taken tells nothing about the token.
 * With an `authorize` hook, `false` is a `401`: "not provided" when the request has no
 * `Authorization` header, "Invalid token." when it has one. A hook that throws rejects the handler
 * (the host framework's error handling gets it).
 */
export function createAuthenticator(check: WriteConfig['check']): (request: PapersRequest, authorization: string | undefined) => Promise<AuthFailure | null> {
  if (check.kind === 'hook') {
    return async (request, authorization) => {
      if ((await check.authorize(request)) === true) return null;
      return authorization === undefined ? 'Authentication credentials were not provided.' : 'Invalid token.';
    };
  }
  let expected: Promise<Uint8Array> | undefined;
  return async (_request, authorization) => {
    const given = readCredentials(authorization);
    if (given === null) return 'Authentication credentials were not provided.';
    if (typeof given !== 'string') return given.failure;
    expected ??= sha256(check.token);
    return constantTimeEqual(await sha256(given), await expected) ? null : 'Invalid token.';
  };
}
