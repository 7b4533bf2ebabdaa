import { ManualClock } from '@kandev/kit';
import type { FileChange } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import type { SocketLike } from '../lib/lsp/socket.js';
import { SessionLive, SessionLives } from './sessionLive.js';

class FakeSocket implements SocketLike {
  sent: string[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  closed = false;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const heads: string[] = [];
  const clock = new ManualClock();
  const create = () =>
    new SessionLive({
      url: 'ws://x/api/sessions/s1/events',
      openSocket: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
      readHead: async (path) => {
        heads.push(path);
        return `head of ${path}`;
      },
      clock,
    });
  return { sockets, heads, clock, create, last: () => sockets.at(-1)! };
}

describe('SessionLive', () => {
  it('passes file changes on, asks for a catch-up on overflow and after a reconnect, and keeps git and watch state', async () => {
    const { create, last, clock } = setup();
    const live = create();
    const files: Array<readonly FileChange[]> = [];
    let catchUps = 0;
    live.onFiles((c) => files.push(c));
    live.onCatchUp(() => catchUps++);
    last().onopen?.({});
    last().receive({ type: 'files', changes: [{ kind: 'changed', path: 'a.ts', directory: false }] });
    last().receive({
      type: 'git',
      state: { available: true, branch: 'main', head: 'c1', files: [{ path: 'src/x/a.ts', status: 'modified', added: 1, deleted: 0 }] },
    });
    last().receive({ type: 'watch', mode: 'polling', reason: 'watch_limit' });
    last().receive({ type: 'overflow' });
    expect(files).toEqual([[{ kind: 'changed', path: 'a.ts', directory: false }]]);
    expect(catchUps).toBe(1);
    const snapshot = live.state.getSnapshot();
    expect([...snapshot.changes.keys()]).toEqual(['src/x/a.ts']);
    expect([...snapshot.changedFolders].sort()).toEqual(['', 'src', 'src/x']);
    expect(snapshot.watch).toEqual({ mode: 'polling', reason: 'watch_limit' });
    expect(snapshot.stream).toBe('open');
    last().onclose?.({ code: 1006 });
    expect(live.state.getSnapshot().stream).toBe('waiting');
    clock.advance(500);
    last().onopen?.({});
    expect(catchUps).toBe(2);
    live.dispose();
  });

  it('HEAD texts are read once per HEAD commit, and not at all without a commit', async () => {
    const { create, last, heads } = setup();
    const live = create();
    last().onopen?.({});
    last().receive({ type: 'git', state: { available: true, branch: 'main', head: 'c1', files: [] } });
    expect(await live.heads.get('a.ts')).toBe('head of a.ts');
    await live.heads.get('a.ts');
    expect(heads).toEqual(['a.ts']);
    last().receive({ type: 'git', state: { available: true, branch: 'main', head: 'c2', files: [] } });
    await live.heads.get('a.ts');
    expect(heads).toEqual(['a.ts', 'a.ts']);
    last().receive({ type: 'git', state: { available: false, reason: 'not_a_repository' } });
    expect(await live.heads.get('a.ts')).toBeUndefined();
    expect(heads).toHaveLength(2);
  });

  it('what every view has in view is sent as one union; a view that goes away is dropped', () => {
    const { create, last } = setup();
    const live = create();
    last().onopen?.({});
    const editor = {};
    const phone = {};
    live.setInView(editor, { files: ['a.ts'], folders: [''] });
    live.setInView(phone, { files: ['b.ts'], folders: ['', 'src'] });
    expect(JSON.parse(last().sent.at(-1)!)).toEqual({ type: 'in_view', files: ['a.ts', 'b.ts'], folders: ['', 'src'] });
    live.setInView(phone, undefined);
    expect(JSON.parse(last().sent.at(-1)!)).toEqual({ type: 'in_view', files: ['a.ts'], folders: [''] });
  });

  it('SessionLives: one stream per session while anyone holds it; the last holder closes it', () => {
    const { create, sockets } = setup();
    const lives = new SessionLives(create);
    const a = lives.acquire('s1');
    const b = lives.acquire('s1');
    expect(a.live).toBe(b.live);
    expect(sockets).toHaveLength(1);
    a.dispose();
    a.dispose();
    expect(sockets[0]!.closed).toBe(false);
    b.dispose();
    expect(sockets[0]!.closed).toBe(true);
    expect(lives.acquire('s1').live).not.toBe(a.live);
  });
});
