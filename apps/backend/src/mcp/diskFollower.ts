import type { Clock } from '@kandev/kit';
import { Emitter, type Disposable } from '@kandev/kit';
import { CloseCode, type GitState, type WorkspaceEventFrame } from '@kandev/protocol';
import type { EventsSocket, SessionEventsHub } from '../events/sessionEvents.js';

/**
 * The live workspace as the MCP endpoint follows it: one listener on the session's events feed
 * (the same agentctl watcher the pages listen to). It knows when the disk last changed, so
 * `diagnostics` waits for the servers to settle after it, and git's changed files.
 */
export class DiskFollower {
  private lastChangeAt = 0;
  private git: GitState | undefined;
  private closed = false;
  private readonly texts = new Emitter<{ text: string }>();
  private readonly closes = new Emitter<number>();
  private readonly changes = new Emitter<void>();

  constructor(
    hub: SessionEventsHub,
    sessionId: string,
    private readonly clock: Clock,
  ) {
    const isClosed = () => this.closed;
    const socket: EventsSocket = {
      get isClosed() {
        return isClosed();
      },
      isFull: false,
      send: (text) => this.onFrame(text),
      close: (code) => this.end(code),
      onText: (listener) => this.texts.event(listener),
      onClose: (listener) => this.closes.event(listener),
      onBackpressure: (): Disposable => ({ dispose: () => undefined }),
    };
    hub.attach(sessionId, socket);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Epoch ms of the last change the watcher reported (0: none since following began). */
  get lastChange(): number {
    return this.lastChangeAt;
  }

  /** Called on every change the watcher reports. */
  onChange(listener: () => void): Disposable {
    return this.changes.event(listener);
  }

  get gitState(): GitState | undefined {
    return this.git;
  }

  private onFrame(text: string): void {
    let frame: WorkspaceEventFrame;
    try {
      frame = JSON.parse(text) as WorkspaceEventFrame;
    } catch {
      return;
    }
    if (frame.type === 'files' || frame.type === 'overflow') {
      this.lastChangeAt = this.clock.now();
      this.changes.fire();
    } else if (frame.type === 'git') this.git = frame.state;
  }

  private end(code: number): void {
    if (this.closed) return;
    this.closed = true;
    this.closes.fire(code);
  }

  dispose(): void {
    this.end(CloseCode.Normal);
  }
}
