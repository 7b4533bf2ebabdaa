import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '@kandev/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { BURST_SETTLE_MS, BurstReconciler } from './burstReconcile.js';
import type { ScannedEntry } from './newFolderScan.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('BurstReconciler', () => {
  it('after a burst settles, reports what changed in its folders that no event reported, down the new folders; old entries stay quiet', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kandev-burst-'));
    roots.push(root);
    writeFileSync(join(root, 'old.txt'), 'old');
    mkdirSync(join(root, 'old-folder'));
    writeFileSync(join(root, 'old-folder', 'kept.txt'), 'kept');
    // File times are the wall clock's: what was there 200 ms before the first event is older than
    // the burst's start (100 ms of slack here, for the native watcher's debounce).
    await sleep(200);
    const clock = new ManualClock();
    const found: ScannedEntry[][] = [];
    const reconciler = new BurstReconciler(root, clock, (missed) => found.push(missed), 100);

    mkdirSync(join(root, 'seen'));
    mkdirSync(join(root, 'lost/a/b'), { recursive: true });
    writeFileSync(join(root, 'lost/a/b/file.txt'), 'x');
    writeFileSync(join(root, 'old-folder/new.txt'), 'new');
    reconciler.note(['seen']);
    reconciler.note(['old-folder/new.txt']);
    clock.advance(BURST_SETTLE_MS - 1);
    await reconciler.reconciled();
    expect(found).toEqual([]); // not settled yet: the second event restarted the wait
    clock.advance(1);
    await reconciler.reconciled();
    const missed = found.flat().sort((x, y) => x.path.localeCompare(y.path));
    expect(missed).toEqual([
      { path: 'lost', kind: 'created', folder: true },
      { path: 'lost/a', kind: 'created', folder: true },
      { path: 'lost/a/b', kind: 'created', folder: true },
      { path: 'lost/a/b/file.txt', kind: 'created', folder: false },
    ]);
    reconciler.dispose();
  });

  it('a file changed in the burst whose event was lost is reported changed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kandev-burst-'));
    roots.push(root);
    writeFileSync(join(root, 'a.txt'), 'one');
    writeFileSync(join(root, 'b.txt'), 'one');
    await sleep(200);
    const clock = new ManualClock();
    const found: ScannedEntry[] = [];
    const reconciler = new BurstReconciler(root, clock, (missed) => found.push(...missed), 100);
    writeFileSync(join(root, 'a.txt'), 'two');
    writeFileSync(join(root, 'b.txt'), 'two');
    reconciler.note(['a.txt']);
    clock.advance(BURST_SETTLE_MS);
    await reconciler.reconciled();
    expect(found).toEqual([{ path: 'b.txt', kind: 'changed', folder: false }]);
  });

  it('files written just before the watch began are where it started, not lost events: a burst within the slack reports only what came after', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kandev-burst-'));
    roots.push(root);
    // Written within the slack of the first event (10 s here), but before the watch began.
    writeFileSync(join(root, 'before.txt'), 'there at the start');
    mkdirSync(join(root, 'before-folder'));
    // Past the lag the reconciler allows file times (the kernel's coarse clock).
    await sleep(200);
    const clock = new ManualClock();
    const found: ScannedEntry[] = [];
    const reconciler = new BurstReconciler(root, clock, (missed) => found.push(...missed), 10_000);
    reconciler.began(Date.now());
    await sleep(20);
    writeFileSync(join(root, 'seen.txt'), 'reported');
    writeFileSync(join(root, 'lost.txt'), 'not reported');
    reconciler.note(['seen.txt']);
    clock.advance(BURST_SETTLE_MS);
    await reconciler.reconciled();
    expect(found).toEqual([{ path: 'lost.txt', kind: 'created', folder: false }]);
    reconciler.dispose();
  });
});
