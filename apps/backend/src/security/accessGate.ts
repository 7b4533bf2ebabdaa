import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ACCESS_COOKIE } from '@kandev/protocol';

/**
 * Decides whether a request carries the access token, as `Authorization: Bearer <token>` (scripts)
 * or the HttpOnly cookie the start link set (browsers). Query tokens are accepted only by the
 * sign-in redirect (server.ts), never here, so they do not end up in API URLs or history.
 */
export class AccessGate {
  private readonly digest: Buffer;

  constructor(token: string) {
    this.digest = sha256(token);
  }

  /**
   * Constant time: both sides are hashed to equal-length digests first, so neither the length nor
   * the first differing character of a guess changes how long the comparison takes.
   */
  matches(candidate: string | undefined): boolean {
    if (candidate === undefined || candidate === '') return false;
    return timingSafeEqual(sha256(candidate), this.digest);
  }

  allows(req: IncomingMessage): boolean {
    return this.matches(bearerToken(req.headers.authorization)) || this.matches(cookieValue(req.headers.cookie, ACCESS_COOKIE));
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match?.[1];
}

/** The value of cookie `name` in a Cookie header; the last one wins when a stale copy precedes it. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  let found: string | undefined;
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    found = part.slice(eq + 1).trim();
  }
  return found;
}

/** The Set-Cookie header of a signed-in browser: script-proof, never sent by another site. */
export function accessCookie(token: string, maxAgeSeconds = 30 * 24 * 3600): string {
  return `${ACCESS_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}`;
}
