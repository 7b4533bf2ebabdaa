import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@kandev/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/log.js';
import { parcelWatcher } from './nativeWatcher.js';
import { WorkspaceWatcher, type PathChange } from './workspaceWatcher.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** With the real native watcher: a link to a folder outside the workspace is never watched through. */
describe('WorkspaceWatcher with @parcel/watcher: symbolic links', () => {
  it('nothing behind a link that leads out of the workspace is reported (an old link or a new one); a write inside is', async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'kandev-links-')));
    roots.push(base);
    const root = join(base, 'workspace');
    const outside = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    symlinkSync(outside, join(root, 'link'));
    const watcher = new WorkspaceWatcher({
      root,
      repoRoots: [''],
      native: parcelWatcher,
      clock: new ManualClock(),
      pollIntervalMs: 1_000,
      logger: silentLogger,
    });
    const seen: PathChange[] = [];
    let marker: () => void = () => undefined;
    const markerSeen = new Promise<void>((resolve) => (marker = resolve));
    watcher.onChanges((changes) => {
      seen.push(...changes);
      if (changes.some((c) => c.path === 'inside.txt')) marker();
    });
    await watcher.start();
    writeFileSync(join(outside, 'secret.txt'), 'outside');
    // A link made now to the folder (already holding a file) is reported itself, never listed through.
    symlinkSync(outside, join(root, 'later-link'));
    // Written after the outside file: once it is reported, the other write would have been too.
    writeFileSync(join(root, 'inside.txt'), 'inside');
    await markerSeen;
    await watcher.scanned();
    expect(seen.some((c) => c.path.startsWith('link/') || c.path.startsWith('later-link/'))).toBe(false);
    expect(seen.some((c) => c.path === 'later-link')).toBe(true);
    await watcher.close();
  }, 20_000);
});
