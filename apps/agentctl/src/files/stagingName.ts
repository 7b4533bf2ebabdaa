import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';

/** The temp file a save's body is staged in: hidden, named after its target, unique. */
export function stagingName(target: string): string {
  return `.${basename(target)}.kandev-${randomBytes(6).toString('hex')}.tmp`;
}

const STAGING = /^\..+\.kandev-[0-9a-f]{12}\.tmp$/;

/**
 * True for a staged save's temp file (by its last path segment). The live workspace never reports
 * them: a big upload keeps one on disk for its whole length, and the Files tree and the servers
 * would otherwise see a file that comes and goes with every save.
 */
export function isStagingPath(path: string): boolean {
  return STAGING.test(path.slice(path.lastIndexOf('/') + 1));
}
