import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processIdentity } from '../executors/processIdentity.js';
import { fail, ok, type Result } from '../base/result.js';

export interface HomeLock {
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

const LOCK_FILE = 'backend.lock';

/**
 * One backend per KANDEV_HOME: two would share one database, re-adopt the same task hosts and
 * sweep each other's processes. The lock file (0600) names the holder by pid and start time, so a
 * lock left by a dead (or SIGKILLed) backend is taken over, and a live holder is refused.
 */
export function acquireHomeLock(home: string, pid: number = process.pid): Result<HomeLock, string> {
  const file = join(home, LOCK_FILE);
  const identity = processIdentity(pid) ?? 'unknown';
  const mine = JSON.stringify({ pid, identity });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      return ok({
        release: () => {
          try {
            if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return fail(`cannot create ${file}: ${(err as Error).message}`);
    }
    const holder = readHolder(file);
    if (holder && holder.pid !== pid && processIdentity(holder.pid) === holder.identity) {
      return fail(`another Kandev backend (pid ${holder.pid}) is running with this KANDEV_HOME (${home}); stop it first`);
    }
    // Its holder is gone: the lock is stale.
    try {
      unlinkSync(file);
    } catch {
      // someone else took it over meanwhile: the next attempt tells
    }
  }
  return fail(`cannot take ${file}: another backend is starting with this KANDEV_HOME`);
}

function readHolder(file: string): { pid: number; identity: string } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; identity?: unknown };
    if (typeof parsed.pid === 'number' && typeof parsed.identity === 'string') return { pid: parsed.pid, identity: parsed.identity };
  } catch {
    // unreadable or half-written: treated as stale
  }
  return undefined;
}
