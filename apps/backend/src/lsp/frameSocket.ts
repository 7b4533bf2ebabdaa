import { OUTGOING_HIGH_WATERMARK_BYTES, OUTGOING_LOW_WATERMARK_BYTES, WS_WRITE_DEADLINE_MS } from '@kandev/protocol';
import { Keepalive, type KeepaliveTiming } from './keepalive.js';

/** The part of a `ws` WebSocket this file uses, so tests can hand in a fake. */
export interface WsLike {
  send(data: string, cb: (err?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  pause(): void;
  resume(): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  off?(event: 'pong', listener: () => void): unknown;
  ping?(): void;
}

/** Close code recorded when a stuck peer is dropped without a close handshake. */
export const TERMINATED = 1006;

/** What `ws` puts in its close frame for a protocol error it detected (see ws/lib/receiver.js). */
const WS_ERROR_CLOSE_CODES: Record<string, number> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 1009,
  WS_ERR_INVALID_UTF8: 1007,
};

export type IncomingText = { text: string } | { binary: true };

export interface FrameSocketOptions {
  writeDeadlineMs?: number;
  /** Pings on this timing; absent: no pings (tests of other rules, or a peer pinged elsewhere). */
  keepalive?: KeepaliveTiming;
  highWatermarkBytes?: number;
  lowWatermarkBytes?: number;
}

/** Why reading is paused; reading resumes only once no reason is left. */
export type PauseReason = 'owner' | 'backpressure';

/**
 * Text frames over one WebSocket, with the rules every hop shares:
 * - every write has a deadline: if queued writes make no progress for `writeDeadlineMs`, the peer
 *   is stuck and the socket is terminated, so a slow reader can never hold memory or a relay;
 * - unwritten bytes are counted: above the high watermark `onBackpressure(true)` tells the owner to
 *   stop reading whatever feeds this socket, at the low watermark (or the close) `false`;
 * - with `keepalive`, a peer that leaves pings unanswered is dead: `onDead`, then terminated;
 * - frames that arrive while nobody listens, or while paused, are held in order, not dropped;
 * - each close listener runs exactly once, with the code we sent when we closed first (the peer
 *   may echo anything), or else the peer's code.
 */
export class FrameSocket {
  private pendingWrites = 0;
  private pendingBytes = 0;
  private corked = false;
  private full = false;
  private deadline: NodeJS.Timeout | undefined;
  private sentCloseCode: number | undefined;
  private closedWith: number | undefined;
  private readonly pausedFor = new Set<PauseReason>();
  private readonly held: IncomingText[] = [];
  private textHandler: ((frame: IncomingText) => void) | undefined;
  private readonly closeHandlers: ((code: number) => void)[] = [];
  private readonly writeTimeoutHandlers: (() => void)[] = [];
  private readonly backpressureHandlers: ((full: boolean) => void)[] = [];
  private readonly deadHandlers: (() => void)[] = [];
  private readonly writeDeadlineMs: number;
  private readonly highWatermark: number;
  private readonly lowWatermark: number;
  private readonly keepalive: Keepalive | undefined;

  constructor(private readonly ws: WsLike, options: FrameSocketOptions | number = {}) {
    const opts = typeof options === 'number' ? { writeDeadlineMs: options } : options;
    this.writeDeadlineMs = opts.writeDeadlineMs ?? WS_WRITE_DEADLINE_MS;
    this.highWatermark = opts.highWatermarkBytes ?? OUTGOING_HIGH_WATERMARK_BYTES;
    this.lowWatermark = opts.lowWatermarkBytes ?? OUTGOING_LOW_WATERMARK_BYTES;
    ws.on('message', (data, isBinary) => {
      this.keepalive?.heard();
      this.receive(isBinary ? { binary: true } : { text: textOf(data) });
    });
    ws.on('close', (code) => this.finish(this.sentCloseCode ?? code));
    if (opts.keepalive && ws.ping) {
      const pinger = ws as WsLike & { ping(): void };
      this.keepalive = new Keepalive(opts.keepalive, {
        ping: () => pinger.ping(),
        // Our own pause also stops reading the peer's pongs: that is no sign of death.
        canJudge: () => this.pausedFor.size === 0,
        dead: () => this.peerDead(),
      });
      ws.on('pong', () => this.keepalive?.heard());
    }
    // `ws` answers a protocol error (oversized frame, bad UTF-8) with a close frame of its own and
    // then stops reading, so its close event says 1006; the code it actually sent is kept instead.
    ws.on('error', (err) => {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_') && !this.isClosed) this.sentCloseCode = WS_ERROR_CLOSE_CODES[code] ?? 1002;
    });
  }

  get isClosed(): boolean {
    return this.closedWith !== undefined || this.sentCloseCode !== undefined;
  }

  /** Bytes handed to `send` and not yet written to the transport. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  send(text: string): void {
    if (this.isClosed) return;
    this.corkBurst();
    const bytes = Buffer.byteLength(text);
    this.pendingWrites++;
    this.pendingBytes += bytes;
    if (this.pendingWrites === 1) this.armDeadline();
    if (!this.full && this.pendingBytes > this.highWatermark) this.setFull(true);
    this.ws.send(text, (err) => {
      this.pendingWrites--;
      // A close already released everything queued here (finish): never count below zero.
      this.pendingBytes = Math.max(0, this.pendingBytes - bytes);
      if (this.full && this.pendingBytes <= this.lowWatermark) this.setFull(false);
      if (err) return;
      // Progress was made: the deadline restarts for whatever is still queued. Once all is
      // written the timer is left to lapse (it finds nothing pending): clearing it and arming a
      // new one for the next message cost two timer operations per message.
      if (this.pendingWrites > 0) this.armDeadline();
    });
  }

  /**
   * Holds this socket's TCP writes until the current run of synchronous work ends: the frames of
   * one burst (a chunk of server notifications relayed one by one) then leave in one write instead
   * of a system call each. ws corks per frame; ours is the outer cork, released on the next tick.
   */
  private corkBurst(): void {
    if (this.corked) return;
    const socket = (this.ws as { _socket?: { cork?(): void; uncork?(): void } })._socket;
    if (!socket?.cork || !socket.uncork) return;
    this.corked = true;
    socket.cork();
    process.nextTick(() => {
      this.corked = false;
      socket.uncork?.();
    });
  }

  close(code: number, reason?: string): void {
    if (this.isClosed) return;
    this.sentCloseCode = code;
    this.clearDeadline();
    this.held.length = 0;
    this.keepalive?.stop();
    this.ws.close(code, reason);
    // A paused socket would never read the peer's closing reply and hang until ws's close
    // timeout; nothing is delivered any more once closing, so reading can resume.
    if (this.pausedFor.size > 0) {
      this.pausedFor.clear();
      this.ws.resume();
    }
  }

  /**
   * Whether the peer still answers: a WebSocket ping, true on its pong within `timeoutMs`. A
   * half-open connection (the network died, no close ever came) answers nothing. Browsers answer
   * pings in their network stack, whatever their page's script is doing.
   */
  probe(timeoutMs: number): Promise<boolean> {
    const ws = this.ws;
    if (this.isClosed) return Promise.resolve(false);
    if (!ws.ping) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (alive: boolean): void => {
        clearTimeout(timer);
        ws.off?.('pong', onPong);
        resolve(alive);
      };
      const onPong = (): void => done(true);
      ws.on('pong', onPong);
      const timer = setTimeout(() => done(false), timeoutMs);
      try {
        ws.ping?.();
      } catch {
        done(false);
      }
    });
  }

  /** Drops the connection without a handshake (a stuck peer cannot take a close frame either). */
  terminate(): void {
    if (this.closedWith !== undefined) return;
    this.sentCloseCode ??= TERMINATED;
    this.clearDeadline();
    this.keepalive?.stop();
    this.ws.terminate();
  }

  /** Stops reading the peer for `reason` (frames already received are held, in order). */
  pause(reason: PauseReason = 'owner'): void {
    if (this.isClosed) return;
    const wasReading = this.pausedFor.size === 0;
    this.pausedFor.add(reason);
    if (wasReading) this.ws.pause();
  }

  /** Drops `reason`; reading resumes (held frames first) once no reason is left. */
  resume(reason: PauseReason = 'owner'): void {
    if (!this.pausedFor.delete(reason) || this.pausedFor.size > 0) return;
    this.ws.resume();
    this.flush();
  }

  /** Adds a listener for the outgoing queue crossing the high (true) and low (false) watermarks. */
  onBackpressure(handler: (full: boolean) => void): void {
    this.backpressureHandlers.push(handler);
  }

  /** Adds a listener for a peer that left its pings unanswered; it runs before the terminate. */
  onDead(handler: () => void): void {
    this.deadHandlers.push(handler);
  }

  onText(handler: (frame: IncomingText) => void): void {
    this.textHandler = handler;
    this.flush();
  }

  /**
   * Adds a listener for a write deadline that expired. It runs before the stuck socket is
   * terminated, so it may still pick the close code that is recorded (close() first).
   */
  onWriteTimeout(handler: () => void): void {
    this.writeTimeoutHandlers.push(handler);
  }

  /** Adds a close listener; one added after the close is called at once. */
  onClose(handler: (code: number) => void): void {
    this.closeHandlers.push(handler);
    if (this.closedWith !== undefined) handler(this.closedWith);
  }

  private receive(frame: IncomingText): void {
    if (this.isClosed) return;
    if (this.pausedFor.size > 0 || !this.textHandler || this.held.length > 0) {
      this.held.push(frame);
      return;
    }
    this.textHandler(frame);
  }

  private flush(): void {
    while (this.pausedFor.size === 0 && this.textHandler && this.held.length > 0 && !this.isClosed) {
      this.textHandler(this.held.shift() as IncomingText);
    }
  }

  private finish(code: number): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = code;
    this.clearDeadline();
    this.keepalive?.stop();
    this.held.length = 0;
    // Whatever this socket held back is released: nothing queued here will be written any more.
    this.pendingBytes = 0;
    if (this.full) this.setFull(false);
    for (const handler of this.closeHandlers) handler(code);
  }

  private setFull(full: boolean): void {
    this.full = full;
    for (const handler of this.backpressureHandlers) handler(full);
  }

  private peerDead(): void {
    if (this.closedWith !== undefined) return;
    for (const handler of this.deadHandlers) handler();
    this.terminate();
  }

  private armDeadline(): void {
    // Re-armed on every completed write: refreshing the one timer is cheaper than a new one each time.
    if (this.deadline !== undefined) {
      this.deadline.refresh();
      return;
    }
    this.deadline = setTimeout(() => this.writeTimedOut(), this.writeDeadlineMs);
    // Never what keeps the backend running: a pending write keeps its socket open anyway.
    this.deadline.unref?.();
  }

  private writeTimedOut(): void {
    this.deadline = undefined;
    if (this.pendingWrites === 0) return; // everything was written since it was armed
    if (this.closedWith === undefined) for (const handler of this.writeTimeoutHandlers) handler();
    this.terminate();
  }

  private clearDeadline(): void {
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = undefined;
  }
}

function textOf(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return String(data);
}
