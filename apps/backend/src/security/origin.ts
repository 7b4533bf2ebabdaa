/**
 * Who may talk to the backend from a browser. Two checks, both cheap:
 *
 * - Origin: a page may open LSP streams or change state only from the backend's own origin (same
 *   host:port as its Host header) or an origin listed in KANDEV_ALLOWED_ORIGINS. Requests without
 *   an Origin come from non-browser clients (curl, tests), which no web page can forge.
 * - Host: when the backend listens on loopback, the Host header must name loopback too (or an
 *   allowed origin's host). Otherwise a DNS-rebinding page (evil.example resolving to 127.0.0.1)
 *   would pass the Origin check as "same origin" with its own name.
 */
export interface OriginPolicy {
  allowedOrigins: readonly string[];
  /** The address the backend listens on. */
  bindHost: string;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/** `host[:port]` as a URL of `protocol` would spell it (default port dropped, lower case). */
function canonicalHost(hostHeader: string, protocol: string): string | undefined {
  try {
    return new URL(`${protocol}//${hostHeader}`).host;
  } catch {
    return undefined;
  }
}

export function originAllowed(origin: string | undefined, hostHeader: string | undefined, policy: OriginPolicy): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // Includes the literal "null" origin of sandboxed frames and file:// pages.
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (policy.allowedOrigins.includes(url.origin)) return true;
  if (!hostHeader) return false;
  return canonicalHost(hostHeader, url.protocol) === url.host;
}

export function hostAllowed(hostHeader: string | undefined, policy: OriginPolicy): boolean {
  if (!isLoopbackName(policy.bindHost)) return true;
  if (hostHeader === undefined) return true;
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return false;
  }
  if (isLoopbackName(hostname)) return true;
  return policy.allowedOrigins.some((o) => new URL(o).hostname === hostname);
}
