import { WS_WRITE_DEADLINE_MS } from '@kandev/protocol';

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

/**
 * Text frames over one WebSocket, with the rules every hop shares:
 * - every write has a deadline: if queued writes make no progress for `writeDeadlineMs`, the peer
 *   is stuck and the socket is terminated, so a slow reader can never hold memory or a relay;
 * - frames that arrive while nobody listens, or while paused, are held in order, not dropped;
 * - each close listener runs exactly once, with the code we sent when we closed first (the peer
 *   may echo anything), or else the peer's code.
 */
export class FrameSocket {
  private pendingWrites = 0;
  private deadline: NodeJS.Timeout | undefined;
  private sentCloseCode: number | undefined;
  private closedWith: number | undefined;
  private paused = false;
  private readonly held: IncomingText[] = [];
  private textHandler: ((frame: IncomingText) => void) | undefined;
  private readonly closeHandlers: ((code: number) => void)[] = [];
  private readonly writeTimeoutHandlers: (() => void)[] = [];

  constructor(private readonly ws: WsLike, private readonly writeDeadlineMs = WS_WRITE_DEADLINE_MS) {
    ws.on('message', (data, isBinary) => this.receive(isBinary ? { binary: true } : { text: textOf(data) }));
    ws.on('close', (code) => this.finish(this.sentCloseCode ?? code));
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

  send(text: string): void {
    if (this.isClosed) return;
    this.pendingWrites++;
    if (this.pendingWrites === 1) this.armDeadline();
    this.ws.send(text, (err) => {
      this.pendingWrites--;
      if (err) return;
      // Progress was made: the deadline restarts for whatever is still queued.
      if (this.pendingWrites === 0) this.clearDeadline();
      else this.armDeadline();
    });
  }

  close(code: number, reason?: string): void {
    if (this.isClosed) return;
    this.sentCloseCode = code;
    this.clearDeadline();
    this.held.length = 0;
    this.ws.close(code, reason);
    // A paused socket would never read the peer's closing reply and hang until ws's close
    // timeout; nothing is delivered any more once closing, so reading can resume.
    if (this.paused) {
      this.paused = false;
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
    this.ws.terminate();
  }

  pause(): void {
    this.paused = true;
    this.ws.pause();
  }

  resume(): void {
    this.paused = false;
    this.ws.resume();
    this.flush();
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
    if (this.paused || !this.textHandler || this.held.length > 0) {
      this.held.push(frame);
      return;
    }
    this.textHandler(frame);
  }

  private flush(): void {
    while (!this.paused && this.textHandler && this.held.length > 0 && !this.isClosed) {
      this.textHandler(this.held.shift() as IncomingText);
    }
  }

  private finish(code: number): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = code;
    this.clearDeadline();
    this.held.length = 0;
    for (const handler of this.closeHandlers) handler(code);
  }

  private armDeadline(): void {
    this.clearDeadline();
    this.deadline = setTimeout(() => this.writeTimedOut(), this.writeDeadlineMs);
  }

  private writeTimedOut(): void {
    this.deadline = undefined;
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
