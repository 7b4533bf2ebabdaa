import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@kandev/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/log.js';
import { parcelWatcher } from './nativeWatcher.js';
import { WorkspaceWatcher, type PathChange } from './workspaceWatcher.js';

const roots: string[] = [];
const watchers: WorkspaceWatcher[] = [];
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const watcher of watchers.splice(0)) await watcher.close();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/**
 * With the real native watcher: `mkdir -p` makes folders inside a new folder faster than inotify
 * can watch them, so the OS never reports what is written there later. Listing each created
 * folder and watching what the OS missed makes every later write arrive. Under load parcel also
 * loses whole creations (burstReconcile.ts); the settled burst's listing finds those.
 */
describe('WorkspaceWatcher with @parcel/watcher: folders created in one go', () => {
  it('files written later into folders made by mkdir -p are all reported', async () => {
    const clock = new ManualClock();
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'kandev-nested-')));
    roots.push(root);
    const watcher = new WorkspaceWatcher({
      root,
      repoRoots: [''],
      native: parcelWatcher,
      clock,
      pollIntervalMs: 1_000,
      logger: silentLogger,
    });
    watchers.push(watcher);
    const seen = new Set<string>();
    const waiters: Array<{ path: string; resolve: () => void }> = [];
    watcher.onChanges((changes: PathChange[]) => {
      for (const change of changes) seen.add(change.path);
      for (const waiter of waiters.filter((w) => seen.has(w.path))) waiter.resolve();
    });
    const reported = (path: string) => (seen.has(path) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ path, resolve })));
    await watcher.start();
    // Time moves on the watcher's clock while the test waits: rescans and the burst's safety net
    // run as they would (parcel loses events under load; that net is what finds them).
    const ticking = setInterval(() => clock.advance(100), 20);
    timers.push(ticking);
    const trees = Array.from({ length: 10 }, (_, i) => `t${i}/a/b`);
    for (const tree of trees) mkdirSync(join(root, tree), { recursive: true });
    // Each deepest folder is known (reported or found by listing), and the listings are done.
    await Promise.all(trees.map(reported));
    await watcher.scanned();
    for (const tree of trees) writeFileSync(join(root, tree, 'late.txt'), 'late');
    await Promise.all(trees.map((tree) => reported(`${tree}/late.txt`)));
    expect(trees.every((tree) => seen.has(`${tree}/late.txt`))).toBe(true);
  }, 20_000);
});
