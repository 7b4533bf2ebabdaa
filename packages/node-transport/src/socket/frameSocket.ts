import { type Clock, type Disposable, Emitter, type ListenerErrorHandler, noopDisposable, systemClock, after } from '@kandev/kit';
import { OUTGOING_HIGH_WATERMARK_BYTES, OUTGOING_LOW_WATERMARK_BYTES, WS_WRITE_DEADLINE_MS } from '@kandev/protocol';
import { Keepalive, type KeepaliveTiming } from './keepalive.js';
import { WriteDeadline } from './writeDeadline.js';
import { bytesOf, type IncomingFrame, TERMINATED, type WsLike, wsProtocolErrorCloseCode } from './wsLike.js';

export interface FrameSocketOptions {
  /** Default WS_WRITE_DEADLINE_MS. */
  writeDeadlineMs?: number;
  /** Pings on this timing; absent: no pings (tests of other rules, or a peer pinged elsewhere). */
  keepalive?: KeepaliveTiming;
  /** Default OUTGOING_HIGH_WATERMARK_BYTES / OUTGOING_LOW_WATERMARK_BYTES. */
  highWatermarkBytes?: number;
  lowWatermarkBytes?: number;
  /** Every timer of this socket (deadline, pings, probe); tests pass a ManualClock. */
  clock?: Clock;
  /** Where a listener that threw is reported; the other listeners run regardless. */
  onListenerError?: ListenerErrorHandler;
  /**
   * With `keepalive`: a write deadline that expires while the peer was heard from within the
   * keepalive window (a pong, a ping of its own, a frame) does not drop it: the peer is slow, not
   * dead, and the deadline starts over. For hops whose peer stops reading on purpose (agentctl
   * while a server's stdin is full): what ends such a peer is its own rule (the stdin cutoff) or
   * the keepalive, never the deadline.
   */
  patientWithLivePeer?: boolean;
}

/** Why reading is paused; reading resumes only once no reason is left. */
export type PauseReason = 'owner' | 'backpressure';

/**
 * Text frames over one WebSocket, with the rules every hop shares (backend and agentctl alike):
 * - one write deadline: if queued writes make no progress for `writeDeadlineMs`, the peer is stuck;
 *   the write-timeout listeners run, then the socket is terminated, so a slow reader can never
 *   hold memory or a relay;
 * - unwritten bytes are counted: above the high watermark the backpressure listeners hear `true`
 *   (stop reading whatever feeds this socket), at the low watermark (or the close) `false`;
 * - with `keepalive`, a peer that leaves pings unanswered is dead: the dead listeners, then terminated;
 * - frames that arrive while nobody listens, or while paused, are held in order, not dropped;
 * - each close listener runs exactly once, with the code we sent when we closed first (the peer
 *   may echo anything), or else the peer's code.
 * Every listener registration returns a Disposable; a listener that throws never stops the others.
 */
export class FrameSocket {
  private pendingWrites = 0;
  private pendingBytes = 0;
  private corked = false;
  private full = false;
  private sentCloseCode: number | undefined;
  private closedWith: number | undefined;
  private error: Error | undefined;
  private readonly pausedFor = new Set<PauseReason>();
  private readonly held: IncomingFrame[] = [];
  /** Resolvers of sendConfirmed calls whose write has not completed yet. */
  private readonly confirmations = new Set<(written: boolean) => void>();
  private readonly frames: Emitter<IncomingFrame>;
  private readonly closes: Emitter<number>;
  private readonly writeTimeouts: Emitter<void>;
  private readonly backpressures: Emitter<boolean>;
  private readonly deaths: Emitter<void>;
  private readonly clock: Clock;
  private readonly deadline: WriteDeadline;
  private readonly highWatermark: number;
  private readonly lowWatermark: number;
  private readonly keepalive: Keepalive | undefined;
  private readonly reportListenerError: ListenerErrorHandler | undefined;
  /** When the peer was last heard from (clock time); only kept for patientWithLivePeer. */
  private lastHeardAt: number;
  /** How long a peer heard from counts as alive for the write deadline; 0: not patient. */
  private readonly aliveWindowMs: number;

  constructor(
    private readonly ws: WsLike,
    options: FrameSocketOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.reportListenerError = options.onListenerError;
    this.frames = new Emitter(options.onListenerError);
    this.closes = new Emitter(options.onListenerError);
    this.writeTimeouts = new Emitter(options.onListenerError);
    this.backpressures = new Emitter(options.onListenerError);
    this.deaths = new Emitter(options.onListenerError);
    this.deadline = new WriteDeadline(this.clock, options.writeDeadlineMs ?? WS_WRITE_DEADLINE_MS, () => this.writeTimedOut());
    this.highWatermark = options.highWatermarkBytes ?? OUTGOING_HIGH_WATERMARK_BYTES;
    this.lowWatermark = options.lowWatermarkBytes ?? OUTGOING_LOW_WATERMARK_BYTES;
    this.lastHeardAt = this.clock.now();
    this.aliveWindowMs = options.patientWithLivePeer && options.keepalive ? options.keepalive.intervalMs * options.keepalive.maxMisses : 0;
    ws.on('message', (data, isBinary) => {
      this.heard();
      if (isBinary) return this.receive({ binary: true });
      const bytes = bytesOf(data);
      this.receive({ text: bytes.toString('utf8'), bytes });
    });
    ws.on('close', (code) => this.finish(this.sentCloseCode ?? code));
    if (options.keepalive && ws.ping) {
      const pinger = ws as WsLike & { ping(): void };
      this.keepalive = new Keepalive(
        options.keepalive,
        {
          ping: () => pinger.ping(),
          // Our own pause also stops reading the peer's pongs: that is no sign of death.
          canJudge: () => this.pausedFor.size === 0,
          dead: () => this.peerDead(),
        },
        this.clock,
      );
      ws.on('pong', () => this.heard());
      ws.on('ping', () => this.heard());
    }
    // `ws` answers a protocol error (oversized frame, bad UTF-8) with a close frame of its own and
    // then stops reading, so its close event says 1006; the code it actually sent is kept instead.
    ws.on('error', (err) => {
      this.error ??= err;
      const code = wsProtocolErrorCloseCode(err);
      if (code !== undefined && !this.isClosed) this.sentCloseCode = code;
    });
  }

  get isClosed(): boolean {
    return this.closedWith !== undefined || this.sentCloseCode !== undefined;
  }

  /** Above the high watermark and not yet back at the low one: a sender of droppable frames skips them. */
  get isFull(): boolean {
    return this.full;
  }

  /** Bytes handed to `send` and not yet written to the transport. */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** The first error the WebSocket reported (a protocol error of the peer, a reset), if any. */
  get lastError(): Error | undefined {
    return this.error;
  }

  /** Queues one text frame (bytes must be UTF-8; they go out as they are, undecoded). */
  send(data: string | Uint8Array): void {
    this.write(data, undefined);
  }

  /**
   * Queues one text message given as UTF-8 pieces (a relayed message with its id spliced, see
   * `relayedWithId`): several pieces go out as the fragments of one message, so the pieces are
   * never joined into a copy of the whole. Counted, timed and confirmed as one message.
   */
  sendPieces(pieces: readonly Uint8Array[]): void {
    if (pieces.length === 1) this.write(pieces[0] as Uint8Array, undefined);
    else this.write(pieces, undefined);
  }

  /** Like `send`; resolves true once the frame was written, false when it never will be. */
  sendConfirmed(data: string | Uint8Array): Promise<boolean> {
    if (this.isClosed) return Promise.resolve(false);
    return new Promise((resolve) => this.write(data, resolve));
  }

  private write(data: string | Uint8Array | readonly Uint8Array[], confirm: ((written: boolean) => void) | undefined): void {
    if (this.isClosed) return;
    this.corkBurst();
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : 'byteLength' in data ? data.byteLength : totalBytes(data);
    this.pendingWrites++;
    this.pendingBytes += bytes;
    if (confirm) this.confirmations.add(confirm);
    if (this.pendingWrites === 1) this.deadline.progress();
    if (!this.full && this.pendingBytes > this.highWatermark) this.setFull(true);
    const done = (err?: Error): void => {
      this.pendingWrites--;
      // A close already released everything queued here (finish): never count below zero.
      this.pendingBytes = Math.max(0, this.pendingBytes - bytes);
      if (confirm && this.confirmations.delete(confirm)) confirm(!err);
      if (this.full && this.pendingBytes <= this.lowWatermark) this.setFull(false);
      if (err) return;
      // Progress was made: the deadline restarts for whatever is still queued.
      if (this.pendingWrites === 0) this.deadline.idle();
      else this.deadline.progress();
    };
    try {
      if (typeof data === 'string' || 'byteLength' in data) this.ws.send(data, { binary: false }, done);
      else sendFragments(this.ws, data, done);
    } catch (err) {
      done(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /**
   * Holds this socket's TCP writes until the current run of synchronous work ends: the frames of
   * one burst (a chunk of server messages relayed one by one) then leave in one write instead of
   * a system call each. ws corks per frame; ours is the outer cork, released on the next tick.
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
    this.deadline.dispose();
    this.held.length = 0;
    this.keepalive?.dispose();
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
      let timer: Disposable = noopDisposable;
      const done = (alive: boolean): void => {
        timer.dispose();
        ws.off?.('pong', onPong);
        resolve(alive);
      };
      const onPong = (): void => done(true);
      ws.on('pong', onPong);
      timer = after(this.clock, timeoutMs, () => done(false));
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
    this.deadline.dispose();
    this.keepalive?.dispose();
    this.failConfirmations();
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

  /** Frames from the peer, in order; frames held while nobody listened are delivered at once. */
  onText(listener: (frame: IncomingFrame) => void): Disposable {
    const registration = this.frames.event(listener);
    this.flush();
    return registration;
  }

  /** The outgoing queue crossing the high (true) and low (false) watermarks. */
  onBackpressure(listener: (full: boolean) => void): Disposable {
    return this.backpressures.event(listener);
  }

  /** A peer that left its pings unanswered; the listeners run before the terminate. */
  onDead(listener: () => void): Disposable {
    return this.deaths.event(listener);
  }

  /**
   * A write deadline that expired. The listeners run before the stuck socket is terminated, so
   * one may still pick the close code that is recorded (close() first).
   */
  onWriteTimeout(listener: () => void): Disposable {
    return this.writeTimeouts.event(listener);
  }

  /** The close, once; a listener added after the close is called at once. */
  onClose(listener: (code: number) => void): Disposable {
    if (this.closedWith === undefined) return this.closes.event(listener);
    try {
      listener(this.closedWith);
    } catch (err) {
      if (this.reportListenerError) this.reportListenerError(err);
      else throw err;
    }
    return noopDisposable;
  }

  private receive(frame: IncomingFrame): void {
    if (this.isClosed) return;
    if (this.pausedFor.size > 0 || this.frames.listenerCount === 0 || this.held.length > 0) {
      this.held.push(frame);
      return;
    }
    this.frames.fire(frame);
  }

  private flush(): void {
    while (this.pausedFor.size === 0 && this.frames.listenerCount > 0 && this.held.length > 0 && !this.isClosed) {
      this.frames.fire(this.held.shift() as IncomingFrame);
    }
  }

  private finish(code: number): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = code;
    this.deadline.dispose();
    this.keepalive?.dispose();
    this.held.length = 0;
    this.failConfirmations();
    // Whatever this socket held back is released: nothing queued here will be written any more.
    this.pendingBytes = 0;
    if (this.full) this.setFull(false);
    this.closes.fire(code);
    // Nothing fires after the close: drop every listener so nothing they captured stays reachable.
    for (const emitter of [this.frames, this.closes, this.writeTimeouts, this.backpressures, this.deaths]) emitter.dispose();
  }

  private failConfirmations(): void {
    const pending = [...this.confirmations];
    this.confirmations.clear();
    for (const confirm of pending) confirm(false);
  }

  private setFull(full: boolean): void {
    this.full = full;
    this.backpressures.fire(full);
  }

  private peerDead(): void {
    if (this.closedWith !== undefined) return;
    this.deaths.fire();
    this.terminate();
  }

  private heard(): void {
    this.lastHeardAt = this.clock.now();
    this.keepalive?.heard();
  }

  private writeTimedOut(): void {
    if (this.closedWith === undefined && this.aliveWindowMs > 0 && this.clock.now() - this.lastHeardAt < this.aliveWindowMs) {
      // Slow, not dead: the peer still answers. Its writes get a new deadline.
      this.deadline.progress();
      return;
    }
    if (this.closedWith === undefined) this.writeTimeouts.fire();
    this.terminate();
  }
}

function totalBytes(pieces: readonly Uint8Array[]): number {
  let bytes = 0;
  for (const piece of pieces) bytes += piece.byteLength;
  return bytes;
}

/**
 * One text message as consecutive fragments (RFC 6455 section 5.4: the first a text frame, the rest
 * continuations, the last with FIN). Sent synchronously one after another, so no other message
 * can come between them; the message is written when its last fragment is (`done`).
 */
function sendFragments(ws: WsLike, pieces: readonly Uint8Array[], done: (err?: Error) => void): void {
  const last = pieces.length - 1;
  pieces.forEach((piece, i) => ws.send(piece, { binary: false, fin: i === last }, i === last ? done : ignoreWritten));
}

/** A fragment before the last: its error, if any, reaches the last fragment's callback too. */
function ignoreWritten(): void {}
