import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installAddon } from './lib/watcherAddon.mjs';
import { scratchTrees } from './lib/scratchTree.js';

const tree = scratchTrees('watcher-addon-');
/** What a process that opened (or mapped) the file before the build still reads through it. */
function readThrough(fd: number): string {
  const buffer = Buffer.alloc(64);
  return buffer.subarray(0, readSync(fd, buffer, 0, 64, 0)).toString();
}

describe('installAddon (the build step that puts parcel-watcher.node beside agentctl)', () => {
  it('replaces a changed addon with a new file, so a running agentctl keeps the bytes it loaded', () => {
    const root = tree({ 'new.node': 'new addon', 'dist/parcel-watcher.node': 'old addon' });
    const target = join(root, 'dist/parcel-watcher.node');
    const held = openSync(target, 'r');
    try {
      expect(installAddon(join(root, 'new.node'), target)).toBe('replaced');
      expect(readThrough(held)).toBe('old addon');
      expect(readFileSync(target, 'utf8')).toBe('new addon');
      expect(readdirSync(join(root, 'dist'))).toEqual(['parcel-watcher.node']);
    } finally {
      closeSync(held);
    }
  });

  it('leaves an identical addon alone (same file, same modification time)', () => {
    const root = tree({ 'new.node': 'same addon', 'dist/parcel-watcher.node': 'same addon' });
    const target = join(root, 'dist/parcel-watcher.node');
    const before = statSync(target);
    expect(installAddon(join(root, 'new.node'), target)).toBe('unchanged');
    const after = statSync(target);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('installs into an output folder that has no addon yet', () => {
    const root = tree({ 'new.node': 'first addon', 'dist/agentctl.mjs': '' });
    expect(installAddon(join(root, 'new.node'), join(root, 'dist/parcel-watcher.node'))).toBe('replaced');
    expect(readFileSync(join(root, 'dist/parcel-watcher.node'), 'utf8')).toBe('first addon');
  });
});
