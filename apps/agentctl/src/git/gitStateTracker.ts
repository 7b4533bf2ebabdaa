/**
 * Keeps the workspace's git state current while someone listens: read once when the first
 * listener comes, again `debounceMs` after file or git changes settle, and every `periodMs` as a
 * cheap safety net (a `.git` that lives elsewhere, a polling watcher). Listeners hear a state only
 * when it differs from the last one. Reads never overlap; one asked for meanwhile runs after.
 */
import { after, Emitter, type Clock, type Disposable } from '@kandev/kit';
import type { GitState } from '@kandev/protocol';

export interface GitStateTrackerOptions {
  clock: Clock;
  debounceMs: number;
  periodMs: number;
  read: () => Promise<GitState>;
  onReadError?: (error: unknown) => void;
}

export class GitStateTracker implements Disposable {
  private readonly changes = new Emitter<GitState>();
  private last: GitState | undefined;
  private lastText = '';
  private debounce: Disposable | undefined;
  private period: Disposable | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private active = false;

  readonly onChange = this.changes.event;

  constructor(private readonly options: GitStateTrackerOptions) {}

  /** The last state read, if any. */
  get current(): GitState | undefined {
    return this.last;
  }

  /** Someone listens: read now and keep reading. Idempotent. */
  activate(): Promise<void> {
    if (!this.active) {
      this.active = true;
      this.period = this.options.clock.every(this.options.periodMs, () => void this.refresh());
    }
    return this.refresh();
  }

  /** Nobody listens: stop reading (the state is read afresh when someone comes back). */
  deactivate(): void {
    this.active = false;
    this.period?.dispose();
    this.period = undefined;
    this.debounce?.dispose();
    this.debounce = undefined;
    this.last = undefined;
    this.lastText = '';
  }

  /** Files or git refs changed: read again once they settle. */
  touch(): void {
    if (!this.active) return;
    this.debounce?.dispose();
    this.debounce = after(this.options.clock, this.options.debounceMs, () => {
      this.debounce = undefined;
      void this.refresh();
    });
  }

  /** Resolves once no read is in flight (nor one asked for meanwhile). */
  async idle(): Promise<void> {
    while (this.reading) await this.reading;
  }

  refresh(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = this.readOnce().finally(() => {
      this.reading = undefined;
      if (this.again && this.active) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    let state: GitState;
    try {
      state = await this.options.read();
    } catch (error) {
      this.options.onReadError?.(error);
      state = { available: false, reason: 'git_failed' };
    }
    if (!this.active) return;
    const text = JSON.stringify(state);
    if (text === this.lastText) return;
    this.last = state;
    this.lastText = text;
    this.changes.fire(state);
  }

  dispose(): void {
    this.deactivate();
    this.changes.dispose();
  }
}
