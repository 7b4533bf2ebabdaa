import { ManualClock } from '@kandev/kit';
import { FrameSocket } from '@kandev/node-transport';
import { FakeWs } from '@kandev/node-transport/testing';
import { CloseCode } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../base/log.js';
import { ok } from '../base/result.js';
import { SessionEventsHub } from './sessionEvents.js';

function socket(highWatermarkBytes = 1 << 20) {
  const ws = new FakeWs();
  const frames = new FrameSocket(ws, { clock: new ManualClock(), highWatermarkBytes, lowWatermarkBytes: 8 });
  return { ws, frames, texts: () => ws.sent.map((s) => s.toString()) };
}

function hub() {
  const upstream = socket();
  let opened = 0;
  const events = new SessionEventsHub(async () => {
    opened++;
    return ok(upstream.frames);
  }, silentLogger);
  return { events, upstream, opened: () => opened };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('SessionEventsHub', () => {
  it('one upstream per session, fanned out; a later page starts with the latest watch and git frames', async () => {
    const h = hub();
    const a = socket();
    h.events.attach('s1', a.frames);
    await flush();
    h.upstream.ws.text('{"type":"watch","mode":"native"}');
    h.upstream.ws.text('{"type":"git","state":{"available":false,"reason":"not_a_repository"}}');
    h.upstream.ws.text('{"type":"files","changes":[]}');
    const b = socket();
    h.events.attach('s1', b.frames);
    expect(h.opened()).toBe(1);
    expect(a.texts()).toEqual([
      '{"type":"watch","mode":"native"}',
      '{"type":"git","state":{"available":false,"reason":"not_a_repository"}}',
      '{"type":"files","changes":[]}',
    ]);
    expect(b.texts()).toEqual(a.texts().slice(0, 2));
  });

  it('the pages in view go upstream as their union; a bad control is ignored', async () => {
    const h = hub();
    const a = socket();
    const b = socket();
    h.events.attach('s1', a.frames);
    h.events.attach('s1', b.frames);
    await flush();
    a.ws.text(JSON.stringify({ type: 'in_view', files: ['a.ts'], folders: [''] }));
    b.ws.text(JSON.stringify({ type: 'in_view', files: ['b.ts', 'a.ts'], folders: ['src'] }));
    b.ws.text('{"type":"in_view","files":"nope"}');
    expect(JSON.parse(h.upstream.texts().at(-1) as string)).toEqual({ type: 'in_view', files: ['a.ts', 'b.ts'], folders: ['', 'src'] });
    expect(b.frames.isClosed).toBe(false);
  });

  it('a page that does not drain gets no change frames until it drains, then one overflow; the others get everything', async () => {
    const h = hub();
    const slow = socket(64);
    const fast = socket();
    h.events.attach('s1', slow.frames);
    h.events.attach('s1', fast.frames);
    await flush();
    const big = JSON.stringify({ type: 'files', changes: [{ kind: 'changed', path: 'x'.repeat(100), directory: false }] });
    h.upstream.ws.text(big);
    const queued = slow.ws.sent.length;
    for (let i = 0; i < 5; i++) h.upstream.ws.text('{"type":"files","changes":[]}');
    expect(slow.ws.sent.length).toBe(queued);
    expect(fast.ws.sent.length).toBe(6);
    while (slow.ws.pendingCallbacks.length > 0) slow.ws.drainOne();
    expect(slow.texts().at(-1)).toBe('{"type":"overflow"}');
  });

  it('the session ending closes its pages with 4002 and the upstream with 1000', async () => {
    const h = hub();
    const a = socket();
    h.events.attach('s1', a.frames);
    await flush();
    h.events.sessionEnded('s1');
    expect(a.ws.closeCalls[0]?.[0]).toBe(CloseCode.Unavailable);
    expect(h.upstream.ws.closeCalls[0]?.[0]).toBe(CloseCode.Normal);
    expect(h.events.pageCount).toBe(0);
  });
});
