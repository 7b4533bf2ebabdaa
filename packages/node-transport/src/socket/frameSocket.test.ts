import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { FakeWs } from '../testing/fakeWs.js';
import { FrameSocket, type FrameSocketOptions } from './frameSocket.js';
import { type IncomingFrame, TERMINATED } from './wsLike.js';

/** The terminate's close event comes on a microtask, as from ws. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const texts = (frames: IncomingFrame[]): string[] => frames.map((f) => ('text' in f ? f.text : '<binary>'));

function socketOn(options: FrameSocketOptions = {}) {
  const ws = new FakeWs();
  const clock = new ManualClock(0);
  const socket = new FrameSocket(ws, { clock, ...options });
  return { ws, clock, socket };
}

describe('FrameSocket write deadline', () => {
  it('terminates a peer whose writes make no progress for the deadline', () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 5_000 });
    socket.send('a');
    socket.send('b');
    clock.advance(4_999);
    expect(ws.terminated).toBe(false);
    clock.advance(1);
    expect(ws.terminated).toBe(true);
  });

  it('tells its write-timeout listeners before terminating, so they may choose the recorded close code', async () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 5_000 });
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    socket.onWriteTimeout(() => socket.close(4009));
    socket.send('a');
    clock.advance(5_000);
    expect(ws.closeCalls).toEqual([[4009, undefined]]);
    expect(ws.terminated).toBe(true);
    await settle();
    expect(codes).toEqual([4009]);
  });

  it('restarts the deadline on progress; once everything drained its timer lapses without effect', () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 5_000 });
    socket.send('a');
    socket.send('b');
    clock.advance(4_000);
    ws.drainOne();
    clock.advance(4_000);
    expect(ws.terminated).toBe(false);
    ws.drainOne();
    // Left armed (no clear and re-arm per message), it fires into an empty queue and is gone.
    expect(clock.pending).toBe(1);
    clock.advance(60_000);
    expect(ws.terminated).toBe(false);
    expect(clock.pending).toBe(0);
  });

  it('a write after an idle lapse gets a whole deadline of its own', () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 5_000 });
    socket.send('a');
    clock.advance(3_000);
    ws.drainOne();
    clock.advance(1_000);
    socket.send('b'); // the old timer, due at 5 s, must not cut this write's window short
    clock.advance(4_999);
    expect(ws.terminated).toBe(false);
    clock.advance(1);
    expect(ws.terminated).toBe(true);
  });

  it('a confirmed send resolves true once written, false for a peer dropped at the deadline', async () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 5_000 });
    const written = socket.sendConfirmed('{"a":1}');
    ws.drainOne();
    expect(await written).toBe(true);
    const stuck = socket.sendConfirmed(Buffer.from('{"b":2}'));
    expect(socket.bufferedBytes).toBe(7);
    clock.advance(5_000);
    expect(await stuck).toBe(false);
    expect(await socket.sendConfirmed('{"c":3}')).toBe(false);
    expect(ws.sent).toHaveLength(2);
  });

  it('records a terminated stuck peer as 1006', async () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 10 });
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    socket.send('x');
    clock.advance(10);
    expect(ws.terminated).toBe(true);
    await settle();
    expect(codes).toEqual([TERMINATED]);
  });
});

describe('FrameSocket close', () => {
  it('reports the close once, with the code we sent rather than the echo', () => {
    const { ws, socket } = socketOn();
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    socket.close(4004, 'executor_unsupported');
    socket.close(1000);
    ws.emit('close', 1005);
    ws.emit('close', 1000);
    expect(ws.closeCalls).toEqual([[4004, 'executor_unsupported']]);
    expect(codes).toEqual([4004]);
  });

  it('calls every close listener once (gateway metrics and relay both listen), and a late one at once', () => {
    const { ws, socket } = socketOn();
    const seen: string[] = [];
    socket.onClose((code) => seen.push(`gateway:${code}`));
    socket.onClose((code) => seen.push(`relay:${code}`));
    ws.emit('close', 1001);
    socket.onClose((code) => seen.push(`late:${code}`));
    expect(seen).toEqual(['gateway:1001', 'relay:1001', 'late:1001']);
  });

  it('a disposed close listener is not called', () => {
    const { ws, socket } = socketOn();
    const seen: number[] = [];
    socket.onClose((code) => seen.push(code)).dispose();
    ws.emit('close', 1000);
    expect(seen).toEqual([]);
  });

  it('resumes reading when closing a paused socket, so the peer close reply is read', () => {
    const { ws, socket } = socketOn();
    const got: IncomingFrame[] = [];
    socket.onText((f) => got.push(f));
    socket.pause();
    ws.text('held');
    socket.close(4002, 'unknown_session');
    expect(ws.paused).toBe(false);
    expect(got).toEqual([]);
  });

  it('records the 1009 ws sent for an oversized frame, not the 1006 of its close event, and keeps the error', () => {
    const { ws, socket } = socketOn();
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    const error = Object.assign(new RangeError('Max payload size exceeded'), { code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' });
    ws.emit('error', error);
    ws.emit('close', 1006);
    expect(codes).toEqual([1009]);
    expect(socket.lastError).toBe(error);
  });
});

describe('FrameSocket listener isolation', () => {
  it('a throwing close listener is reported and the listeners after it still run', () => {
    const errors: unknown[] = [];
    const { ws, socket } = socketOn({ onListenerError: (e) => errors.push(e) });
    const seen: string[] = [];
    socket.onClose(() => {
      throw new Error('broken relay');
    });
    socket.onClose((code) => seen.push(`metrics:${code}`));
    ws.emit('close', 1001);
    expect(seen).toEqual(['metrics:1001']);
    expect(errors).toHaveLength(1);
  });

  it('a throwing backpressure or frame listener does not starve the next one', () => {
    const errors: unknown[] = [];
    const { ws, socket } = socketOn({ highWatermarkBytes: 1, lowWatermarkBytes: 0, onListenerError: (e) => errors.push(e) });
    const states: boolean[] = [];
    const got: string[] = [];
    socket.onBackpressure(() => {
      throw new Error('a');
    });
    socket.onBackpressure((full) => states.push(full));
    socket.onText(() => {
      throw new Error('b');
    });
    socket.onText((f) => got.push('text' in f ? f.text : ''));
    socket.send('xx');
    ws.drainOne();
    ws.text('1');
    expect(states).toEqual([true, false]);
    expect(got).toEqual(['1']);
    expect(errors).toHaveLength(3);
  });
});

describe('FrameSocket reading', () => {
  it('holds frames while paused and delivers them in order on resume, text with its raw bytes', () => {
    const { ws, socket } = socketOn();
    const got: IncomingFrame[] = [];
    socket.pause();
    socket.onText((f) => got.push(f));
    ws.text('1');
    ws.text('2');
    expect(got).toEqual([]);
    socket.resume();
    ws.text('3');
    expect(texts(got)).toEqual(['1', '2', '3']);
    expect(got[0]).toEqual({ text: '1', bytes: Buffer.from('1') });
  });

  it('holds frames until someone listens, and reports a binary frame as such', () => {
    const { ws, socket } = socketOn();
    ws.text('early');
    ws.emit('message', Buffer.from('{}'), true);
    const got: IncomingFrame[] = [];
    socket.onText((f) => got.push(f));
    expect(texts(got)).toEqual(['early', '<binary>']);
  });

  it('a pause for backpressure and the owner pause are independent', () => {
    const { ws, socket } = socketOn();
    const got: IncomingFrame[] = [];
    socket.onText((f) => got.push(f));
    socket.pause('backpressure');
    socket.pause('owner');
    ws.text('1');
    socket.resume('backpressure');
    expect(got).toEqual([]);
    expect(ws.paused).toBe(true);
    socket.resume('owner');
    expect(texts(got)).toEqual(['1']);
    expect(ws.paused).toBe(false);
  });
});

describe('FrameSocket liveness probe', () => {
  it('is true when the peer answers the ping, false when a half-open peer stays silent', async () => {
    const live = socketOn();
    expect(await live.socket.probe(1_000)).toBe(true);
    const silent = socketOn();
    silent.ws.answersPings = false;
    const probing = silent.socket.probe(1_000);
    silent.clock.advance(1_000);
    expect(await probing).toBe(false);
    expect(silent.ws.listenerCount('pong')).toBe(0);
  });
});

describe('FrameSocket byte watermarks', () => {
  it('reports full above the high watermark, and drained at the low one', () => {
    const { ws, socket } = socketOn({ highWatermarkBytes: 10, lowWatermarkBytes: 4 });
    const states: boolean[] = [];
    socket.onBackpressure((full) => states.push(full));
    socket.send('12345');
    socket.send(Buffer.from('12345'));
    expect(states).toEqual([]);
    socket.send('1');
    expect(states).toEqual([true]);
    expect(socket.bufferedBytes).toBe(11);
    ws.drainOne();
    expect(states).toEqual([true]);
    ws.drainOne();
    expect(states).toEqual([true, false]);
  });

  it('a socket closed while full reports drained, so nothing stays held for it', () => {
    const { ws, socket } = socketOn({ highWatermarkBytes: 1, lowWatermarkBytes: 0 });
    const states: boolean[] = [];
    socket.onBackpressure((full) => states.push(full));
    socket.send('xx');
    ws.emit('close', 1006);
    expect(states).toEqual([true, false]);
    expect(socket.bufferedBytes).toBe(0);
  });
});

describe('FrameSocket keepalive', () => {
  it('a peer that answers pings stays; one that stops answering is dead after the misses and terminated', async () => {
    const { ws, clock, socket } = socketOn({ keepalive: { intervalMs: 100, maxMisses: 2 } });
    const dead: string[] = [];
    socket.onDead(() => dead.push('dead'));
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      await settle(); // the pong arrives
    }
    expect(dead).toEqual([]);
    ws.answersPings = false;
    clock.advance(100); // first unanswered ping goes out
    clock.advance(100); // miss 1
    expect(dead).toEqual([]);
    clock.advance(100); // miss 2
    expect(dead).toEqual(['dead']);
    expect(ws.terminated).toBe(true);
    expect(clock.pending).toBe(0);
  });

  it('any frame from the peer counts as an answer, and a socket we paused is never judged', () => {
    const { ws, clock, socket } = socketOn({ keepalive: { intervalMs: 100, maxMisses: 2 } });
    ws.answersPings = false;
    socket.onText(() => undefined);
    const dead: string[] = [];
    socket.onDead(() => dead.push('dead'));
    for (let i = 0; i < 10; i++) {
      ws.text('{}');
      clock.advance(100);
    }
    expect(dead).toEqual([]);
    socket.pause('backpressure');
    clock.advance(1_000);
    expect(dead).toEqual([]);
  });

  it('stops pinging once closed', () => {
    const { ws, clock, socket } = socketOn({ keepalive: { intervalMs: 100, maxMisses: 2 } });
    socket.close(1000);
    ws.emit('close', 1000);
    expect(clock.pending).toBe(0);
  });
});

describe('FrameSocket with a slow but live peer (patientWithLivePeer)', () => {
  const keepalive = { intervalMs: 1_000, maxMisses: 2 };

  it('a write deadline never drops a peer that keeps pinging while it reads nothing; the keepalive still ends a silent one', () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 5_000, keepalive, patientWithLivePeer: true });
    const timeouts: string[] = [];
    socket.onWriteTimeout(() => timeouts.push('timeout'));
    ws.answersPings = false; // it reads nothing of ours: no pongs either
    socket.send('x'.repeat(1024));
    for (let t = 0; t < 60_000; t += 500) {
      ws.emit('ping'); // but it pings us (its socket writes while its reads are paused)
      clock.advance(500);
    }
    expect(timeouts).toEqual([]);
    expect(ws.terminated).toBe(false);
    // Silent now: after the keepalive window the next deadline drops it (or the keepalive does).
    clock.advance(5_000);
    expect(ws.terminated).toBe(true);
  });

  it('without the option the deadline drops the same peer at 5 s, pings or not', () => {
    const { ws, clock, socket } = socketOn({ writeDeadlineMs: 5_000, keepalive });
    ws.answersPings = false;
    socket.send('x');
    for (let t = 0; t < 5_000; t += 500) {
      ws.emit('ping');
      clock.advance(500);
    }
    expect(ws.terminated).toBe(true);
  });

  it('a paused socket keeps pinging its peer, so the peer hears that it is alive', () => {
    const { ws, clock, socket } = socketOn({ keepalive });
    let pings = 0;
    const ping = ws.ping.bind(ws);
    ws.ping = () => {
      pings++;
      ping();
    };
    socket.pause('backpressure');
    clock.advance(10_000);
    expect(pings).toBe(10);
    expect(ws.terminated).toBe(false);
  });
});

describe('FrameSocket pieces of one message', () => {
  it('sends the pieces as the fragments of one message, counted and confirmed as one', () => {
    const { ws, socket } = socketOn({ highWatermarkBytes: 10, lowWatermarkBytes: 4 });
    const states: boolean[] = [];
    socket.onBackpressure((full) => states.push(full));
    socket.sendPieces([Buffer.from('{"id":'), Buffer.from('7'), Buffer.from(',"x":1}')]);
    expect(ws.sent.map((p) => Buffer.from(p).toString())).toEqual(['{"id":', '7', ',"x":1}']);
    expect(ws.fins).toEqual([false, false, true]);
    expect(socket.bufferedBytes).toBe(14);
    expect(states).toEqual([true]);
    // The message is written when its last fragment is; the earlier ones do not count it done.
    ws.drainOne();
    ws.drainOne();
    expect(socket.bufferedBytes).toBe(14);
    ws.drainOne();
    expect(socket.bufferedBytes).toBe(0);
    expect(states).toEqual([true, false]);
  });

  it('a single piece is a plain message, not a fragment', () => {
    const { ws, socket } = socketOn();
    socket.sendPieces([Buffer.from('{"a":1}')]);
    expect(ws.fins).toEqual([true]);
    expect(ws.sent).toHaveLength(1);
  });
});
