/**
 * The workspace's events for pages (through the backend): one coalescing window shared by every
 * listener, `files` frames with each changed path's kind (and whether it is a folder), `overflow`
 * when a window held more than a frame may carry, `watch` and `git` first and on every change.
 * A listener that does not drain (its socket above the high watermark) is sent nothing more until
 * it drains, then one `overflow`: what it missed is never queued for it.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { DisposableStore, type Clock, type Disposable } from '@kandev/kit';
import type { FrameSocket } from '@kandev/node-transport';
import { CloseCode, type FileChange, type WorkspaceEventFrame } from '@kandev/protocol';
import type { Logger } from '../base/log.js';
import type { GitStateTracker } from '../git/gitStateTracker.js';
import { ChangeCoalescer, type CoalescedWindow } from '../watch/coalescer.js';
import type { WorkspaceWatcher } from '../watch/workspaceWatcher.js';
import { parseInViewControl } from './inViewControl.js';

export interface EventsFeedOptions {
  root: string;
  watcher: WorkspaceWatcher;
  git: GitStateTracker;
  clock: Clock;
  windowMs: number;
  maxChanges: number;
  logger: Logger;
}

interface Listener {
  socket: FrameSocket;
  inView: { files: string[]; folders: string[] };
  /** Frames were skipped while it was full: it gets `overflow` once it drains. */
  missed: boolean;
}

export class WorkspaceEventsFeed implements Disposable {
  private readonly listeners = new Set<Listener>();
  private readonly coalescer: ChangeCoalescer;
  private readonly store = new DisposableStore();
  /** Frames sent since start (all listeners count once per frame): the bench reads it. */
  framesSent = 0;
  /** The last window's folder checks, in flight: windows are sent in order. */
  private windowsSent: Promise<void> = Promise.resolve();

  constructor(private readonly options: EventsFeedOptions) {
    this.coalescer = this.store.add(
      new ChangeCoalescer({ clock: options.clock, windowMs: options.windowMs, maxPaths: options.maxChanges, onWindow: (window) => this.queueWindow(window) }),
    );
    this.store.add(
      options.watcher.onChanges((changes) => {
        if (this.listeners.size === 0) return;
        for (const change of changes) this.coalescer.add(change.path, change.kind);
        options.git.touch();
      }),
    );
    this.store.add(options.watcher.onGitTouched(() => options.git.touch()));
    this.store.add(options.watcher.onMode((state) => this.broadcast({ type: 'watch', ...state })));
    this.store.add(options.git.onChange((state) => this.broadcast({ type: 'git', state })));
  }

  get size(): number {
    return this.listeners.size;
  }

  /** A page's stream: `watch` at once, `git` as soon as it is known, then every window. */
  attach(socket: FrameSocket): Disposable {
    const listener: Listener = { socket, inView: { files: [], folders: [] }, missed: false };
    this.listeners.add(listener);
    const registrations = new DisposableStore();
    this.send(listener, { type: 'watch', ...this.options.watcher.state });
    const known = this.options.git.current;
    if (known) this.send(listener, { type: 'git', state: known });
    // The first listener starts the git reads; its first state reaches everyone through onChange.
    void this.options.git.activate();
    registrations.add(
      socket.onText((frame) => {
        if (!('text' in frame)) return;
        const inView = parseInViewControl(frame.text);
        // A bad control is refused whole and logged, not fatal to its stream; the last view stays.
        if (!inView.ok) return this.options.logger.log('warn', 'in_view_refused', { code: inView.error.code, detail: inView.error.message });
        listener.inView = inView.value;
        this.updateInView();
      }),
    );
    registrations.add(
      socket.onBackpressure((full) => {
        if (!full && listener.missed) {
          listener.missed = false;
          this.send(listener, { type: 'overflow' });
        }
      }),
    );
    const detach = () => {
      registrations.dispose();
      if (!this.listeners.delete(listener)) return;
      this.updateInView();
      if (this.listeners.size === 0) {
        this.coalescer.dispose();
        this.options.git.deactivate();
      }
    };
    registrations.add(socket.onClose(detach));
    return { dispose: detach };
  }

  private updateInView(): void {
    const files = new Set<string>();
    const folders = new Set<string>();
    for (const listener of this.listeners) {
      for (const file of listener.inView.files) files.add(file);
      for (const folder of listener.inView.folders) folders.add(folder);
    }
    this.options.watcher.setInView([...files], [...folders]);
  }

  /** Resolves once every window closed so far was sent and no git read is in flight (tests). */
  async settled(): Promise<void> {
    await this.windowsSent;
    await this.options.git.idle();
  }

  private queueWindow(window: CoalescedWindow): void {
    this.windowsSent = this.windowsSent.then(() => this.onWindow(window)).catch(() => undefined);
  }

  private async onWindow(window: CoalescedWindow): Promise<void> {
    if (window.overflow) {
      this.options.logger.log('info', 'watch_overflow', { maxChanges: this.options.maxChanges });
      this.broadcast({ type: 'overflow' });
      return;
    }
    const changes: FileChange[] = [];
    for (const [path, kind] of window.changes) {
      changes.push({ kind, path, directory: kind === 'deleted' ? false : await this.isFolder(path) });
    }
    this.broadcast({ type: 'files', changes });
  }

  private async isFolder(path: string): Promise<boolean> {
    try {
      return (await lstat(join(this.options.root, path))).isDirectory();
    } catch {
      return false;
    }
  }

  private broadcast(frame: WorkspaceEventFrame): void {
    const text = JSON.stringify(frame);
    for (const listener of this.listeners) this.send(listener, frame, text);
  }

  private send(listener: Listener, frame: WorkspaceEventFrame, text = JSON.stringify(frame)): void {
    const { socket } = listener;
    if (socket.isClosed) return;
    // State frames (watch, git) always go: they are small and the page needs the latest. Change
    // frames to a full socket are skipped and stand for one `overflow` once it drains.
    if ((frame.type === 'files' || frame.type === 'overflow') && (listener.missed || socket.isFull)) {
      listener.missed = true;
      return;
    }
    socket.send(text);
    this.framesSent++;
  }

  dispose(): void {
    for (const listener of [...this.listeners]) listener.socket.close(CloseCode.GoingAway);
    this.listeners.clear();
    this.store.dispose();
  }
}
