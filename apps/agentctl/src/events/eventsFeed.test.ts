import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@kandev/kit';
import { FrameSocket } from '@kandev/node-transport';
import { FakeWs } from '@kandev/node-transport/testing';
import type { GitState } from '@kandev/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/log.js';
import { GitStateTracker } from '../git/gitStateTracker.js';
import type { NativeEvent, NativeWatcher } from '../watch/nativeWatcher.js';
import { WorkspaceWatcher } from '../watch/workspaceWatcher.js';
import { WorkspaceEventsFeed } from './eventsFeed.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const CLEAN: GitState = { available: true, branch: 'main', head: 'abc', files: [] };

async function feed(options: { maxChanges?: number; highWatermark?: number } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'kandev-events-'));
  roots.push(root);
  mkdirSync(join(root, 'src'));
  const clock = new ManualClock();
  let emit: (events: NativeEvent[]) => void = () => undefined;
  const native: NativeWatcher = {
    async subscribe(_root, _ignore, onEvents) {
      emit = onEvents;
      return { dispose: () => undefined, close: async () => undefined };
    },
  };
  const watcher = new WorkspaceWatcher({ root, repoRoots: [''], native, clock, pollIntervalMs: 1_000, logger: silentLogger });
  await watcher.start();
  let state: GitState = CLEAN;
  let reads = 0;
  const git = new GitStateTracker({ clock, debounceMs: 300, periodMs: 10_000, read: async () => (reads++, state) });
  const events = new WorkspaceEventsFeed({ root, watcher, git, clock, windowMs: 50, maxChanges: options.maxChanges ?? 2_000, logger: silentLogger });
  const ws = new FakeWs();
  const socket = new FrameSocket(ws, { clock, highWatermarkBytes: options.highWatermark ?? 1 << 20, lowWatermarkBytes: 16 });
  const frames = () => ws.sent.map((s) => JSON.parse(s.toString()));
  return {
    root,
    clock,
    events,
    socket,
    ws,
    frames,
    git,
    reads: () => reads,
    setState: (s: GitState) => (state = s),
    write: (...paths: string[]) => emit(paths.map((p) => ({ path: join(root, p), type: 'update' as const }))),
    create: (...paths: string[]) => emit(paths.map((p) => ({ path: join(root, p), type: 'create' as const }))),
  };
}

describe('WorkspaceEventsFeed', () => {
  it('sends watch first, then git, then one files frame per window with folders marked', async () => {
    const f = await feed();
    f.events.attach(f.socket);
    await f.events.settled();
    expect(f.frames()).toEqual([
      { type: 'watch', mode: 'native' },
      { type: 'git', state: CLEAN },
    ]);
    f.write('src/a.ts', 'src/a.ts', 'src/a.ts');
    f.create('src');
    f.clock.advance(50);
    await f.events.settled();
    expect(f.frames().slice(2)).toEqual([
      {
        type: 'files',
        changes: [
          { kind: 'changed', path: 'src/a.ts', directory: false },
          { kind: 'created', path: 'src', directory: true },
        ],
      },
    ]);
  });

  it('git state is read again after changes settle and sent only when it differs', async () => {
    const f = await feed();
    f.events.attach(f.socket);
    await f.events.settled();
    const before = f.reads();
    f.write('a.ts');
    f.clock.advance(299);
    expect(f.reads()).toBe(before);
    f.clock.advance(1);
    await f.events.settled();
    expect(f.reads()).toBe(before + 1);
    expect(f.frames().filter((fr) => fr.type === 'git')).toHaveLength(1); // unchanged: not sent again
    const dirty: GitState = { ...CLEAN, files: [{ path: 'a.ts', status: 'modified', added: 1, deleted: 0 }] };
    f.setState(dirty);
    f.write('a.ts');
    f.clock.advance(300);
    await f.events.settled();
    expect(
      f
        .frames()
        .filter((fr) => fr.type === 'git')
        .at(-1),
    ).toEqual({ type: 'git', state: dirty });
  });

  it('a burst of 10,000 writes becomes one overflow frame per window, not 10,000 paths', async () => {
    const f = await feed({ maxChanges: 2_000 });
    f.events.attach(f.socket);
    await f.events.settled();
    const start = f.frames().length;
    for (let i = 0; i < 10; i++) f.create(...Array.from({ length: 1_000 }, (_, j) => `node_modules/p${i}-${j}.js`));
    f.clock.advance(50);
    await f.events.settled();
    expect(f.frames().slice(start)).toEqual([{ type: 'overflow' }]);
  });

  it('a page that does not drain gets no change frames until it drains, then one overflow', async () => {
    const f = await feed({ highWatermark: 64 });
    f.events.attach(f.socket);
    await f.events.settled();
    f.write(`src/${'x'.repeat(100)}.ts`);
    f.clock.advance(50);
    await f.events.settled(); // this frame takes the socket above its high watermark
    const queued = f.ws.sent.length;
    for (let i = 0; i < 5; i++) {
      f.write(`src/f${i}.ts`);
      f.clock.advance(50);
      await f.events.settled();
    }
    expect(f.ws.sent.length).toBe(queued); // nothing more queued for it
    while (f.ws.pendingCallbacks.length > 0) f.ws.drainOne();
    expect(f.frames().at(-1)).toEqual({ type: 'overflow' });
  });

  it('the pages in view are what the watcher polls; a bad control is ignored', async () => {
    const f = await feed();
    f.events.attach(f.socket);
    const seen: Array<[string[], string[]]> = [];
    const original = f.events['options'].watcher.setInView.bind(f.events['options'].watcher);
    f.events['options'].watcher.setInView = (files: string[], folders: string[]) => {
      seen.push([files, folders]);
      original(files, folders);
    };
    f.ws.text(JSON.stringify({ type: 'in_view', files: ['src/a.ts'], folders: ['', 'src'] }));
    f.ws.text(JSON.stringify({ type: 'in_view', files: ['../etc/passwd'], folders: [] }));
    f.ws.text('not json');
    expect(seen).toEqual([[['src/a.ts'], ['', 'src']]]);
    expect(f.socket.isClosed).toBe(false);
  });
});
