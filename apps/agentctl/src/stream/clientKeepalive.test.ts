import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepClientAlive } from './clientKeepalive.js';

/** The part of a `ws` socket the keepalive uses; pongs come only while `answers`. */
class FakeSocket extends EventEmitter {
  answers = true;
  isPaused = false;
  pings = 0;
  ping(): void {
    this.pings++;
    if (this.answers) queueMicrotask(() => this.emit('pong'));
  }
}

afterEach(() => vi.useRealTimers());

describe('keepClientAlive', () => {
  it('a client that answers is kept; one that stops answering is dead after the misses, once', async () => {
    vi.useFakeTimers();
    const ws = new FakeSocket();
    const dead = vi.fn();
    keepClientAlive(ws as unknown as WebSocket, { intervalMs: 100, maxMisses: 2 }, dead);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(dead).not.toHaveBeenCalled();
    ws.answers = false;
    await vi.advanceTimersByTimeAsync(300);
    expect(dead).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(dead).toHaveBeenCalledTimes(1);
  });

  it('frames count as answers, a socket paused for stdin backpressure is never judged, and dispose stops it', async () => {
    vi.useFakeTimers();
    const ws = new FakeSocket();
    ws.answers = false;
    const dead = vi.fn();
    const dispose = keepClientAlive(ws as unknown as WebSocket, { intervalMs: 100, maxMisses: 2 }, dead);
    for (let i = 0; i < 10; i++) {
      ws.emit('message', Buffer.from('{}'));
      await vi.advanceTimersByTimeAsync(100);
    }
    ws.isPaused = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(dead).not.toHaveBeenCalled();
    ws.isPaused = false;
    dispose();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(dead).not.toHaveBeenCalled();
    expect(ws.listenerCount('pong')).toBe(0);
  });
});
