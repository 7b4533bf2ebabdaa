import { DisposableStore, Emitter, toDisposable, type Clock, type Disposable, type Event } from '@kandev/kit';
import type { FileChange } from '@kandev/protocol';
import { WorkspaceEventsStream, type InView } from '../lib/live/eventsStream.js';
import { HeadTexts } from '../lib/live/headTexts.js';
import { LiveState } from '../lib/live/liveState.js';
import type { AccessGate } from '../lib/access/accessWatch.js';
import type { SocketFactory } from '../lib/lsp/socket.js';
import { parentFolder } from '../lib/workspace/fileActions.js';
import type { FileTreeModel } from '../lib/workspace/fileTree.js';
import type { SessionWorkspace } from '../lib/workspace/sessionWorkspace.js';

export interface SessionLiveOptions {
  url: string;
  openSocket: SocketFactory;
  readHead(path: string): Promise<string | undefined>;
  clock?: Clock;
  access?: AccessGate;
}

/**
 * One session's live workspace in this window: its events stream, what it says of git and the
 * watcher (`state`), the HEAD texts diffs are drawn against, and the union of what every view of
 * the session has in view (sent to the task host, which polls those paths when it cannot watch).
 */
export class SessionLive implements Disposable {
  readonly state = new LiveState();
  readonly heads: HeadTexts;
  private readonly stream: WorkspaceEventsStream;
  private readonly store = new DisposableStore();
  private readonly views = new Map<object, InView>();
  private readonly files = new Emitter<readonly FileChange[]>();
  private readonly catchUps = new Emitter<void>();
  /** Changes of one coalesced window, in order. */
  readonly onFiles: Event<readonly FileChange[]> = this.files.event;
  /** Too much changed, or the stream was away: reload listings and tabs from disk. */
  readonly onCatchUp: Event<void> = this.catchUps.event;

  constructor(options: SessionLiveOptions) {
    this.heads = new HeadTexts(options.readHead);
    this.stream = this.store.add(new WorkspaceEventsStream({ url: options.url, openSocket: options.openSocket, clock: options.clock, access: options.access }));
    this.store.add(
      this.stream.onFrame((frame) => {
        if (frame.type === 'files') this.files.fire(frame.changes);
        else if (frame.type === 'overflow') this.catchUps.fire();
        else {
          if (frame.type === 'git') this.heads.setHead(frame.state.available ? frame.state.head : null);
          this.state.apply(frame);
        }
      }),
    );
    this.store.add(this.stream.onResync(() => this.catchUps.fire()));
    this.store.add(this.stream.onDidChangeState((s) => this.state.setStream(s)));
    this.stream.start();
  }

  /** What one view of the session has in view (undefined: it went away). */
  setInView(owner: object, view: InView | undefined): void {
    if (view) this.views.set(owner, view);
    else this.views.delete(owner);
    const all = [...this.views.values()];
    this.stream.setInView({ files: all.flatMap((v) => v.files), folders: all.flatMap((v) => v.folders) });
  }

  dispose(): void {
    this.store.dispose();
    this.files.dispose();
    this.catchUps.dispose();
    this.state.dispose();
  }
}

/** A session's editor workspace follows the live stream: changes, catch-ups, and what it has in view. */
export function followLive(live: SessionLive, workspace: SessionWorkspace): Disposable {
  const store = new DisposableStore();
  const owner = {};
  store.add(live.onFiles((changes) => void workspace.applyDiskChanges(changes)));
  store.add(live.onCatchUp(() => void workspace.refreshFromDisk()));
  const report = () => live.setInView(owner, workspace.inView());
  store.add(workspace.onDidChange(report));
  store.add(workspace.tree.onDidChange(report));
  report();
  store.add(toDisposable(() => live.setInView(owner, undefined)));
  return store;
}

/** A held session live; disposing lets go of it (the last holder closes its stream). */
export interface HeldLive extends Disposable {
  live: SessionLive;
}

/** The window's session lives by session id, reference counted: the editor and the phone viewer share one stream. */
export class SessionLives implements Disposable {
  private readonly lives = new Map<string, { live: SessionLive; holders: number }>();

  constructor(private readonly create: (sessionId: string) => SessionLive) {}

  acquire(sessionId: string): HeldLive {
    let entry = this.lives.get(sessionId);
    if (!entry) {
      entry = { live: this.create(sessionId), holders: 0 };
      this.lives.set(sessionId, entry);
    }
    entry.holders++;
    const held = entry;
    let released = false;
    return {
      live: held.live,
      dispose: () => {
        if (released) return;
        released = true;
        held.holders--;
        if (held.holders === 0 && this.lives.get(sessionId) === held) {
          this.lives.delete(sessionId);
          held.live.dispose();
        }
      },
    };
  }

  dispose(): void {
    for (const { live } of this.lives.values()) live.dispose();
    this.lives.clear();
  }
}

/**
 * A Files tree without an editor (the phone viewer) follows the live stream: loaded folders are
 * listed again where something changed, everything on a catch-up; `touched` hears every changed path.
 */
export function followLiveTree(live: SessionLive, tree: FileTreeModel, inView: () => InView, touched?: (paths: ReadonlySet<string>) => void): Disposable {
  const store = new DisposableStore();
  const owner = {};
  store.add(
    live.onFiles((changes) => {
      const paths = new Set(changes.flatMap((c) => (c.kind === 'renamed' ? [c.from, c.path] : [c.path])));
      for (const folder of new Set([...paths].map(parentFolder))) void tree.refresh(folder);
      touched?.(paths);
    }),
  );
  store.add(
    live.onCatchUp(() => {
      void tree.refreshAll();
      touched?.(new Set(inView().files));
    }),
  );
  const report = () => live.setInView(owner, inView());
  store.add(tree.onDidChange(report));
  report();
  store.add(toDisposable(() => live.setInView(owner, undefined)));
  return store;
}
