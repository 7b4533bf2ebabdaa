import { ManualClock } from '@kandev/kit';
import type { WorkspaceEventFrame } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import type { SocketLike } from '../lsp/socket.js';
import { AccessWatch, type AccessCheck } from '../access/accessWatch.js';
import { WorkspaceEventsStream } from './eventsStream.js';

class FakeSocket implements SocketLike {
  sent: string[] = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.({});
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: typeof frame === 'string' ? frame : JSON.stringify(frame) });
  }
  lose() {
    this.onclose?.({ code: 1006 });
  }
}

function setup(access?: AccessWatch) {
  const clock = new ManualClock();
  const sockets: FakeSocket[] = [];
  const stream = new WorkspaceEventsStream({
    url: 'ws://host/api/sessions/s1/events',
    openSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    clock,
    reconnectDelaysMs: [500, 1_000, 4_000],
    ...(access ? { access } : {}),
  });
  const frames: WorkspaceEventFrame[] = [];
  let resyncs = 0;
  stream.onFrame((f) => frames.push(f));
  stream.onResync(() => resyncs++);
  return { clock, sockets, stream, frames, resyncs: () => resyncs, last: () => sockets.at(-1)! };
}

describe('WorkspaceEventsStream', () => {
  it('passes on the frames it understands, ignores newer types, and catches up (overflow) after a malformed one', () => {
    const { stream, frames, last } = setup();
    stream.start();
    last().open();
    last().receive({
      type: 'files',
      changes: [
        { kind: 'created', path: 'a.ts', directory: false },
        { kind: 'bogus', path: 'b' },
      ],
    });
    last().receive({ type: 'git', state: { available: true, branch: 'main', head: 'abc', files: [{ path: 'a.ts', status: 'added', added: 3 }] } });
    last().receive({ type: 'watch', mode: 'polling', reason: 'watch_limit' });
    last().receive('not json');
    last().receive({ type: 'from_the_future' });
    last().receive({ type: 'overflow' });
    last().receive({ type: 'files', changes: [{ kind: 'created', path: 'c.ts', directory: false }] });
    // The frame with a bogus change is refused whole: its good change is reloaded from disk, not lost.
    expect(frames).toEqual([
      { type: 'overflow' },
      { type: 'git', state: { available: true, branch: 'main', head: 'abc', files: [{ path: 'a.ts', status: 'added', added: 3 }] } },
      { type: 'watch', mode: 'polling', reason: 'watch_limit' },
      { type: 'overflow' },
      { type: 'overflow' },
      { type: 'files', changes: [{ kind: 'created', path: 'c.ts', directory: false }] },
    ]);
  });

  it('sends what is in view on open and when it changes, never the same twice', () => {
    const { stream, last } = setup();
    stream.setInView({ files: ['b.ts', 'a.ts'], folders: [''] });
    stream.start();
    expect(last().sent).toEqual([]);
    last().open();
    expect(last().sent.map((s) => JSON.parse(s))).toEqual([{ type: 'in_view', files: ['a.ts', 'b.ts'], folders: [''] }]);
    stream.setInView({ files: ['a.ts', 'b.ts'], folders: [''] });
    expect(last().sent).toHaveLength(1);
    stream.setInView({ files: ['a.ts'], folders: ['', 'src'] });
    expect(
      last()
        .sent.map((s) => JSON.parse(s))
        .at(-1),
    ).toEqual({ type: 'in_view', files: ['a.ts'], folders: ['', 'src'] });
  });

  it('reconnects with backoff after a loss, resends what is in view and asks for a resync', () => {
    const { clock, sockets, stream, resyncs, last } = setup();
    stream.setInView({ files: ['a.ts'], folders: [''] });
    stream.start();
    last().open();
    expect(resyncs()).toBe(0);
    last().lose();
    expect(stream.state).toBe('waiting');
    clock.advance(499);
    expect(sockets).toHaveLength(1);
    clock.advance(1);
    expect(sockets).toHaveLength(2);
    last().lose();
    clock.advance(999);
    expect(sockets).toHaveLength(2);
    clock.advance(1);
    expect(sockets).toHaveLength(3);
    last().lose();
    clock.advance(4_000);
    last().lose();
    // The last delay repeats: the stream never gives up while the session is held.
    clock.advance(3_999);
    expect(sockets).toHaveLength(4);
    clock.advance(1);
    expect(sockets).toHaveLength(5);
    last().open();
    expect(stream.state).toBe('open');
    expect(resyncs()).toBe(1);
    expect(JSON.parse(last().sent[0]!)).toEqual({ type: 'in_view', files: ['a.ts'], folders: [''] });
    // An open resets the backoff.
    last().lose();
    clock.advance(500);
    expect(sockets).toHaveLength(6);
  });

  it('dispose closes the socket and cancels a pending reconnect; a late event of an old socket is ignored', () => {
    const { clock, sockets, stream, frames, last } = setup();
    stream.start();
    const first = last();
    first.open();
    first.lose();
    stream.dispose();
    clock.advance(10_000);
    expect(sockets).toHaveLength(1);
    first.receive({ type: 'overflow' });
    expect(frames).toEqual([]);
    expect(stream.state).toBe('stopped');
    stream.start();
    expect(sockets).toHaveLength(1);
  });
});

describe('WorkspaceEventsStream and the page sign-in', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('asks the sign-in before reconnecting: refused, it stops opening sockets until signed in again, then resyncs', async () => {
    let answer: AccessCheck = 'refused';
    const access = new AccessWatch(async () => answer);
    const { clock, sockets, stream, resyncs, last } = setup(access);
    stream.start();
    last().open();
    last().lose();
    clock.advance(500);
    await settle();
    expect(sockets).toHaveLength(1);
    expect(stream.state).toBe('stopped');
    clock.advance(60_000);
    await settle();
    expect(sockets).toHaveLength(1);
    answer = 'ok';
    await access.recheck();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(resyncs()).toBe(1);
  });

  it('a 401 elsewhere while it waits to reconnect stops it at once', () => {
    const access = new AccessWatch(async () => 'ok');
    const { clock, sockets, stream, last } = setup(access);
    stream.start();
    last().open();
    last().lose();
    access.refused();
    expect(stream.state).toBe('stopped');
    clock.advance(60_000);
    expect(sockets).toHaveLength(1);
  });
});
