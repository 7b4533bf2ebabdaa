import { after, Emitter, systemClock, type Clock, type Disposable, type Event } from '@kandev/kit';
import { CloseCode, parseWorkspaceEventFrame, type WorkspaceEventControl, type WorkspaceEventFrame, type WorkspacePath } from '@kandev/protocol';
import type { AccessGate } from '../access/accessWatch.js';
import type { SocketFactory, SocketLike } from '../lsp/socket.js';

/**
 * Waits before each reconnect after the stream was lost; the last one repeats (the stream is a
 * convenience that should come back by itself, so it never gives up while the session is shown).
 * A connection that opened resets the sequence.
 */
export const EVENTS_RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000] as const;

export type EventsStreamState = 'connecting' | 'open' | 'waiting' | 'stopped';

export interface EventsStreamOptions {
  url: string;
  openSocket: SocketFactory;
  clock?: Clock;
  reconnectDelaysMs?: readonly number[];
  /** The page's sign-in: asked before each reconnect; signed out, the stream stops until signed in again. */
  access?: AccessGate;
}

export interface InView {
  files: WorkspacePath[];
  folders: WorkspacePath[];
}

/**
 * The page's end of one session's workspace events stream (files, overflow, watch mode, git
 * state). It reconnects with backoff after a loss; every open after the first fires `onResync`,
 * since frames sent while it was away are gone and the page must catch up from disk. It tells the
 * task host what the page has in view (open files, expanded folders) on every open and whenever
 * that changes.
 */
export class WorkspaceEventsStream implements Disposable {
  private socket: SocketLike | undefined;
  private timer: Disposable | undefined;
  private attempt = 0;
  private openedBefore = false;
  private current: EventsStreamState = 'stopped';
  private disposed = false;
  private haltedBySignOut = false;
  private inView: InView = { files: [], folders: [] };
  private sentInView: string | undefined;
  private readonly clock: Clock;
  private readonly delays: readonly number[];
  private readonly frames = new Emitter<WorkspaceEventFrame>();
  private readonly resyncs = new Emitter<void>();
  private readonly states = new Emitter<EventsStreamState>();
  readonly onFrame: Event<WorkspaceEventFrame> = this.frames.event;
  /** The stream opened again after a loss: whatever happened meanwhile was not heard. */
  readonly onResync: Event<void> = this.resyncs.event;
  readonly onDidChangeState: Event<EventsStreamState> = this.states.event;

  constructor(private readonly options: EventsStreamOptions) {
    this.clock = options.clock ?? systemClock;
    this.delays = options.reconnectDelaysMs ?? EVENTS_RECONNECT_DELAYS_MS;
    this.signIns = options.access?.onDidChange((state) => {
      if (this.disposed) return;
      if (state === 'signed-out') {
        // Waiting to reconnect: stop now. An open socket stays (its upgrade was accepted).
        if (this.current === 'waiting') this.haltSignedOut();
        return;
      }
      if (!this.haltedBySignOut) return;
      this.haltedBySignOut = false;
      this.connect();
    });
  }

  private readonly signIns: Disposable | undefined;

  get state(): EventsStreamState {
    return this.current;
  }

  start(): void {
    if (this.disposed || this.current !== 'stopped' || this.haltedBySignOut) return;
    this.connect();
  }

  /** What the page shows; sent when it differs from what the task host last heard. */
  setInView(view: InView): void {
    this.inView = { files: [...new Set(view.files)].sort(), folders: [...new Set(view.folders)].sort() };
    this.sendInView();
  }

  private setState(state: EventsStreamState): void {
    if (state === this.current) return;
    this.current = state;
    this.states.fire(state);
  }

  private connect(): void {
    this.setState('connecting');
    let socket: SocketLike;
    try {
      socket = this.options.openSocket(this.options.url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.sentInView = undefined;
      this.setState('open');
      this.sendInView();
      if (this.openedBefore) this.resyncs.fire();
      this.openedBefore = true;
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      // The protocol's schema: a frame of a newer type is ignored; a wrong one cannot say what changed,
      // so the page catches up from disk as after an overflow, and no change is lost.
      const parsed = parseWorkspaceEventFrame(event.data);
      if (parsed.kind === 'frame') this.frames.fire(parsed.frame);
      else if (parsed.kind === 'invalid') this.frames.fire({ type: 'overflow' });
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.retry();
    };
    socket.onerror = () => undefined;
  }

  private retry(): void {
    if (this.current === 'stopped') return;
    if (this.options.access?.state === 'signed-out') {
      this.haltSignedOut();
      return;
    }
    const delay = this.delays[Math.min(this.attempt, this.delays.length - 1)] ?? 1_000;
    this.attempt++;
    this.setState('waiting');
    this.timer = after(this.clock, delay, () => this.reconnectIfAdmitted());
  }

  /** The backend refuses a signed-out page's upgrade (seen here as a plain close): ask first. */
  private reconnectIfAdmitted(): void {
    const access = this.options.access;
    if (!access) {
      this.timer = undefined;
      this.connect();
      return;
    }
    let cancelled = false;
    const waiting: Disposable = { dispose: () => (cancelled = true) };
    this.timer = waiting;
    void access.admit().then((admitted) => {
      if (cancelled || this.disposed || this.timer !== waiting) return;
      this.timer = undefined;
      if (admitted) {
        this.connect();
        return;
      }
      this.haltSignedOut();
    });
  }

  /** Signed out: no socket until the page is signed in again (then it resyncs, as after any loss). */
  private haltSignedOut(): void {
    this.timer?.dispose();
    this.timer = undefined;
    this.haltedBySignOut = true;
    this.setState('stopped');
  }

  private sendInView(): void {
    if (this.current !== 'open' || !this.socket) return;
    const control: WorkspaceEventControl = { type: 'in_view', files: this.inView.files, folders: this.inView.folders };
    const text = JSON.stringify(control);
    if (text === this.sentInView) return;
    this.sentInView = text;
    try {
      this.socket.send(text);
    } catch {
      // the close that follows reconnects, and the next open sends it again
    }
  }

  /** Closes the stream for good. */
  dispose(): void {
    if (this.disposed) return;
    this.setState('stopped');
    this.disposed = true;
    this.signIns?.dispose();
    this.timer?.dispose();
    this.timer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    try {
      socket?.close(CloseCode.Normal);
    } catch {
      // already closed
    }
    this.frames.dispose();
    this.resyncs.dispose();
    this.states.dispose();
  }
}
