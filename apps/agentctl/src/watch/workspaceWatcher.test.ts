import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@kandev/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/log.js';
import type { NativeEvent, NativeSubscription, NativeWatcher } from './nativeWatcher.js';
import { BURST_SETTLE_MS } from './burstReconcile.js';
import { isWatchLimitError, WorkspaceWatcher, type PathChange, type WatchState } from './workspaceWatcher.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A native watcher the test drives: events on demand, a start refusal, a later error. */
class ScriptedNative implements NativeWatcher {
  emit: (events: NativeEvent[]) => void = () => undefined;
  error: (error: Error) => void = () => undefined;
  ignored: string[] = [];
  disposed = false;
  constructor(private readonly refuse?: Error) {}
  async subscribe(_root: string, ignore: string[], onEvents: (e: NativeEvent[]) => void, onError: (e: Error) => void): Promise<NativeSubscription> {
    if (this.refuse) throw this.refuse;
    this.ignored = ignore;
    this.emit = onEvents;
    this.error = onError;
    return { dispose: () => (this.disposed = true), close: async () => void (this.disposed = true) };
  }
}

async function watcherOn(native: NativeWatcher) {
  const root = mkdtempSync(join(tmpdir(), 'kandev-watch-'));
  roots.push(root);
  const clock = new ManualClock();
  const watcher = new WorkspaceWatcher({ root, repoRoots: [''], native, clock, pollIntervalMs: 1_000, logger: silentLogger });
  const changes: PathChange[][] = [];
  const modes: WatchState[] = [];
  let gitTouched = 0;
  watcher.onChanges((c) => changes.push(c));
  watcher.onMode((m) => modes.push(m));
  watcher.onGitTouched(() => gitTouched++);
  await watcher.start();
  return { root, clock, watcher, changes, modes, git: () => gitTouched };
}

describe('WorkspaceWatcher', () => {
  it('reports workspace-relative changes; .git internals and staged saves never, HEAD/index/refs as a git wake-up', async () => {
    const native = new ScriptedNative();
    const { root, watcher, changes, git } = await watcherOn(native);
    expect(native.ignored).toContain(join(root, '.git', 'objects'));
    native.emit([
      { path: join(root, 'src/a.ts'), type: 'update' },
      { path: join(root, '.git/objects/ab/cd'), type: 'create' },
      { path: join(root, '.git/index'), type: 'update' },
      { path: join(root, 'b.ts'), type: 'delete' },
      { path: '/elsewhere/x', type: 'create' },
      // A save's body staged next to its file (files/stagingName.ts): never a workspace change.
      { path: join(root, 'src/.a.ts.kandev-0123456789ab.tmp'), type: 'create' },
    ]);
    expect(changes).toEqual([
      [
        { path: 'src/a.ts', kind: 'changed' },
        { path: 'b.ts', kind: 'deleted' },
      ],
    ]);
    expect(git()).toBe(1);
    expect(watcher.state).toEqual({ mode: 'native' });
  });

  it('ENOSPC at start (the inotify watch limit): polling with reason watch_limit, never a throw', async () => {
    const enospc = Object.assign(new Error('inotify_add_watch on /ws/node_modules failed: No space left on device'), { code: 'ENOSPC' });
    const { root, clock, watcher, changes } = await watcherOn(new ScriptedNative(enospc));
    expect(watcher.state).toEqual({ mode: 'polling', reason: 'watch_limit' });
    // Only what the pages have in view is polled: an open file and an expanded folder.
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/open.ts'), 'one');
    writeFileSync(join(root, 'unseen.ts'), 'one');
    watcher.setInView(['src/open.ts'], ['src']);
    clock.advance(1_000);
    await watcher.polled();
    expect(changes).toEqual([]); // the first look is the baseline
    writeFileSync(join(root, 'src/open.ts'), 'two, longer');
    writeFileSync(join(root, 'src/new.ts'), 'new');
    writeFileSync(join(root, 'src/.new.ts.kandev-0123456789ab.tmp'), 'staged');
    writeFileSync(join(root, 'unseen.ts'), 'two, longer');
    clock.advance(1_000);
    await watcher.polled();
    expect(changes.flat()).toEqual([
      { path: 'src/open.ts', kind: 'changed' },
      { path: 'src/new.ts', kind: 'created' },
    ]);
    watcher.dispose();
  });

  it('a native error after the start degrades to polling (watcher_failed) and stops the native watch', async () => {
    const native = new ScriptedNative();
    const { watcher, modes } = await watcherOn(native);
    native.error(new Error('read failed'));
    expect(modes).toEqual([{ mode: 'polling', reason: 'watcher_failed' }]);
    expect(native.disposed).toBe(true);
    // Later native events are not reported twice alongside polling.
    native.error(new Error('again'));
    expect(modes).toHaveLength(1);
    watcher.dispose();
  });

  it('what the native watcher lost in a burst is reported once it settles, and a lost folder gets a watch of its own', async () => {
    const native = new ScriptedNative();
    const { root, clock, watcher, changes } = await watcherOn(native);
    mkdirSync(join(root, 'seen'));
    mkdirSync(join(root, 'lost/a/b'), { recursive: true });
    // Only the first creation reaches us, as when parcel's queue overflowed or its batch cleared the rest.
    native.emit([{ path: join(root, 'seen'), type: 'create' }]);
    await watcher.scanned();
    expect(changes.flat()).toEqual([{ path: 'seen', kind: 'created' }]);
    clock.advance(BURST_SETTLE_MS);
    await watcher.reconciled();
    expect(
      changes
        .flat()
        .slice(1)
        .sort((x, y) => x.path.localeCompare(y.path)),
    ).toEqual([
      { path: 'lost', kind: 'created' },
      { path: 'lost/a', kind: 'created' },
      { path: 'lost/a/b', kind: 'created' },
    ]);
    // No OS watch is assumed for the lost folders: a later write in the deepest one still arrives.
    const late = new Promise<void>((resolve) => watcher.onChanges((c) => c.some((x) => x.path === 'lost/a/b/late.txt') && resolve()));
    writeFileSync(join(root, 'lost/a/b/late.txt'), 'late');
    await late;
    watcher.dispose();
  });

  it('recognizes the watch limit by code or message', () => {
    expect(isWatchLimitError(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe(true);
    expect(isWatchLimitError(new Error('No space left on device'))).toBe(true);
    expect(isWatchLimitError(new Error('permission denied'))).toBe(false);
  });
});
