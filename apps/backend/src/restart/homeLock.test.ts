import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireHomeLock } from './homeLock.js';

const homes: string[] = [];
afterEach(() => homes.splice(0).forEach((h) => rmSync(h, { recursive: true, force: true })));

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-lock-'));
  homes.push(dir);
  return dir;
}

describe('one backend per KANDEV_HOME', () => {
  it('a second backend is refused while the first one runs, and may start once it released the lock', () => {
    const dir = home();
    const first = acquireHomeLock(dir);
    expect(first.ok).toBe(true);
    expect(statSync(join(dir, 'backend.lock')).mode & 0o777).toBe(0o600);
    // Another live process (here: this one under another name would be us, so a real child).
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const second = acquireHomeLock(dir, other.pid as number);
      expect(second).toEqual({ ok: false, error: expect.stringContaining(`another Kandev backend (pid ${process.pid}) is running`) });
      if (first.ok) first.value.release();
      expect(acquireHomeLock(dir, other.pid as number).ok).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, 'backend.lock'), 'utf8')).pid).toBe(other.pid);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it("two backends taking over the same stale lock at once: the one that loses the race is refused, it never removes the winner's lock", () => {
    const dir = home();
    const lock = join(dir, 'backend.lock');
    writeFileSync(lock, JSON.stringify({ pid: 2_000_000_000, identity: 'gone' }));
    const winner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      let won: ReturnType<typeof acquireHomeLock> | undefined;
      // This backend judged the lock stale; before it acts, the other one takes it over.
      const late = acquireHomeLock(dir, process.pid, { beforeTakeover: () => (won ??= acquireHomeLock(dir, winner.pid as number)) });
      expect(won?.ok).toBe(true);
      expect(late).toEqual({ ok: false, error: expect.stringContaining(`another Kandev backend (pid ${winner.pid}) is running`) });
      expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(winner.pid);
      // Nothing is left beside the lock.
      expect(readdirSync(dir)).toEqual(['backend.lock']);
    } finally {
      winner.kill('SIGKILL');
    }
  });

  it('a lock left by a backend that died is taken over', () => {
    const dir = home();
    writeFileSync(join(dir, 'backend.lock'), JSON.stringify({ pid: 2_000_000_000, identity: 'gone' }));
    expect(acquireHomeLock(dir).ok).toBe(true);
    writeFileSync(join(dir, 'backend.lock'), 'half-written{');
    expect(acquireHomeLock(dir).ok).toBe(true);
  });
});
