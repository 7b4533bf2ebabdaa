import { Emitter, type Event } from '@kandev/kit';
import type { GitFileChange, GitState, WatchDegradedReason, WatchMode, WorkspaceEventFrame } from '@kandev/protocol';
import type { EventsStreamState } from './eventsStream.js';

export interface LiveSnapshot {
  /** Undefined until the first `git` frame. */
  git: GitState | undefined;
  /** Changed files by path (renames under their new path); empty outside a git workspace. */
  changes: ReadonlyMap<string, GitFileChange>;
  /** Folders holding a changed file at any depth ('' included when anything changed). */
  changedFolders: ReadonlySet<string>;
  watch: { mode: WatchMode; reason?: WatchDegradedReason } | undefined;
  stream: EventsStreamState;
}

const EMPTY: LiveSnapshot = { git: undefined, changes: new Map(), changedFolders: new Set(), watch: undefined, stream: 'stopped' };

/**
 * What the events stream says about a session beyond single file changes: the git state (what
 * the agent changed against HEAD), how the task host watches, and whether the stream is up. One
 * immutable snapshot for React.
 */
export class LiveState {
  private snapshot: LiveSnapshot = EMPTY;
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;

  getSnapshot = (): LiveSnapshot => this.snapshot;

  apply(frame: WorkspaceEventFrame): void {
    if (frame.type === 'git') this.setGit(frame.state);
    else if (frame.type === 'watch') this.update({ watch: frame.reason ? { mode: frame.mode, reason: frame.reason } : { mode: frame.mode } });
  }

  setStream(stream: EventsStreamState): void {
    if (stream !== this.snapshot.stream) this.update({ stream });
  }

  private setGit(git: GitState): void {
    const changes = new Map<string, GitFileChange>();
    const changedFolders = new Set<string>();
    if (git.available) {
      for (const file of git.files) {
        changes.set(file.path, file);
        const parts = file.path.split('/');
        for (let i = 0; i < parts.length; i++) changedFolders.add(parts.slice(0, i).join('/'));
      }
    }
    this.update({ git, changes, changedFolders });
  }

  private update(patch: Partial<LiveSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.changes.fire();
  }

  dispose(): void {
    this.changes.dispose();
  }
}
