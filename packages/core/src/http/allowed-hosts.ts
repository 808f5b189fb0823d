/**
 * The host name of a `host[:port]` value, lower-cased, without the port; IPv6 literals keep
 * their brackets. `null` when the value is not a plausible host.
 */
export function hostName(hostWithPort: string): string | null {
  const value = hostWithPort.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/.exec(value);
  return match ? match[1]!.replace(/\.$/, '') : null;
}

/**
 * Whether a request host may shape links: an exact name, a `.suffix` pattern (the domain and
 * its subdomains, as in Django's ALLOWED_HOSTS) or `*`.
 *
 * @example isAllowedHost('api.example.org:443', ['.example.org']) === true
 */
export function isAllowedHost(hostWithPort: string, allowed: readonly string[]): boolean {
  const name = hostName(hostWithPort);
  if (name === null) return false;
  return allowed.some(
    (pattern) => pattern === '*' || pattern === name || (pattern.startsWith('.') && (name.endsWith(pattern) || name === pattern.slice(1))),
  );
}
