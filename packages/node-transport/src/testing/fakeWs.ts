import { EventEmitter } from 'node:events';
import type { WsLike } from '../socket/wsLike.js';

/**
 * A `ws` stand-in for tests: writes complete only when the test says so (a stuck peer never
 * drains), pings are answered on the next microtask unless the peer is half-open.
 */
export class FakeWs extends EventEmitter implements WsLike {
  readonly pendingCallbacks: ((err?: Error) => void)[] = [];
  readonly sent: (string | Uint8Array)[] = [];
  closeCalls: [number | undefined, string | undefined][] = [];
  terminated = false;
  paused = false;
  /** false: a half-open peer that never answers. */
  answersPings = true;
  /** Per send, whether it ended its message (false: a fragment that more fragments continue). */
  readonly fins: boolean[] = [];
  send(data: string | Uint8Array, options: { binary: false; fin?: boolean }, cb: (err?: Error) => void): void {
    this.sent.push(data);
    this.fins.push(options.fin !== false);
    this.pendingCallbacks.push(cb);
  }
  drainOne(err?: Error): void {
    this.pendingCallbacks.shift()?.(err);
  }
  close(code?: number, reason?: string): void {
    this.closeCalls.push([code, reason]);
  }
  terminate(): void {
    this.terminated = true;
    queueMicrotask(() => this.emit('close', 1006));
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  text(value: string): void {
    this.emit('message', Buffer.from(value), false);
  }
  ping(): void {
    if (this.answersPings) queueMicrotask(() => this.emit('pong'));
  }
}
