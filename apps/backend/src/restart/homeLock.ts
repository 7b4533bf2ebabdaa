import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processIdentity } from '../executors/processIdentity.js';
import { fail, ok, type Result } from '../base/result.js';

export interface HomeLock {
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

/** Seams for tests: what another backend may do between two steps of this one. */
export interface HomeLockSteps {
  /** Runs after a lock was judged stale, before it is taken over. */
  beforeTakeover?: () => void;
}

const LOCK_FILE = 'backend.lock';
const ATTEMPTS = 4;

/**
 * One backend per KANDEV_HOME: two would share one database, re-adopt the same task hosts and
 * sweep each other's processes. The lock file (0600) names the holder by pid and start time, so a
 * lock left by a dead (or SIGKILLed) backend is taken over, and a live holder is refused.
 *
 * Two backends started at once must not both win. The lock is written whole under a name of its
 * own and then hard-linked into place, which fails when a lock exists: nobody ever reads a
 * half-written one. A stale lock is moved aside (a rename only one process can win) and removed
 * only if it is still the one judged stale; a fresh lock moved aside by mistake is put back.
 */
export function acquireHomeLock(home: string, pid: number = process.pid, steps: HomeLockSteps = {}): Result<HomeLock, string> {
  const file = join(home, LOCK_FILE);
  const identity = processIdentity(pid) ?? 'unknown';
  const mine = JSON.stringify({ pid, identity });
  const draft = `${file}.${pid}.${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(draft, mine, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    return fail(`cannot create ${draft}: ${(err as Error).message}`);
  }
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        linkSync(draft, file);
        return ok({ release: () => releaseIfMine(file, mine) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return fail(`cannot create ${file}: ${(err as Error).message}`);
      }
      const seen = readText(file);
      if (seen === undefined) continue; // released meanwhile: try again
      const holder = parseHolder(seen);
      if (holder && holder.pid !== pid && processIdentity(holder.pid) === holder.identity) {
        return fail(`another Kandev backend (pid ${holder.pid}) is running with this KANDEV_HOME (${home}); stop it first`);
      }
      steps.beforeTakeover?.();
      takeOverStale(file, seen, `${draft}.stale`);
    }
  } finally {
    removeQuietly(draft);
  }
  return fail(`cannot take ${file}: another backend is starting with this KANDEV_HOME`);
}

/** Removes the lock `seen` judged stale; a lock that replaced it meanwhile is put back untouched. */
function takeOverStale(file: string, seen: string, aside: string): void {
  try {
    renameSync(file, aside);
  } catch {
    return; // someone else moved it first: the next attempt tells
  }
  if (readText(aside) !== seen) {
    try {
      linkSync(aside, file);
    } catch {
      // a third backend locked meanwhile: its lock stands, the next attempt reads it
    }
  }
  removeQuietly(aside);
}

function releaseIfMine(file: string, mine: string): void {
  if (readText(file) === mine) removeQuietly(file);
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function parseHolder(text: string): { pid: number; identity: string } | undefined {
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; identity?: unknown };
    if (typeof parsed.pid === 'number' && typeof parsed.identity === 'string') return { pid: parsed.pid, identity: parsed.identity };
  } catch {
    // unreadable: no backend writes a lock in pieces any more, so it is stale
  }
  return undefined;
}
