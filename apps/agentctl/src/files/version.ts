import { createHash } from 'node:crypto';

/** A file's version: the sha256 hex of its bytes (docs/internals.md). */
export function contentVersion(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
