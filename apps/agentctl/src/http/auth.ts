import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Checks `Authorization: Bearer <token>` in constant time (hashing both sides first makes the
 * lengths equal). A token in the query string is not accepted (docs/internals.md).
 */
export function createBearerCheck(token: string): (req: IncomingMessage) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (req) => {
    const header = req.headers.authorization;
    if (typeof header !== 'string') return false;
    const match = /^Bearer (.+)$/.exec(header);
    if (!match) return false;
    const given = createHash('sha256')
      .update(match[1] as string)
      .digest();
    return timingSafeEqual(given, expected);
  };
}
