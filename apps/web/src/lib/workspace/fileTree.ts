import { Emitter, type Event } from '@kandev/kit';
import type { FileEntry } from '@kandev/protocol';

/** The folders above a workspace-relative path, outermost first ('' is the workspace root). */
export function ancestorDirectories(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const out = [''];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

export type FolderListing = { state: 'loading' } | { state: 'loaded'; entries: FileEntry[] } | { state: 'error' };

export interface FileTreeSnapshot {
  listings: ReadonlyMap<string, FolderListing>;
  expanded: ReadonlySet<string>;
}

/**
 * The lazy Files tree of one session: folder listings load on first expansion. Revealing a path
 * loads and expands every ancestor, so a navigation target nested beneath unloaded folders shows
 * up marked active (S35).
 */
export class FileTreeModel {
  private listings = new Map<string, FolderListing>();
  private expanded = new Set<string>();
  private inflight = new Map<string, Promise<void>>();
  private snapshot: FileTreeSnapshot = { listings: this.listings, expanded: this.expanded };
  private readonly changes = new Emitter<void>();
  /** A listing or the expanded set changed: read getSnapshot again. */
  readonly onDidChange: Event<void> = this.changes.event;

  constructor(private readonly list: (folder: string) => Promise<FileEntry[]>) {}

  getSnapshot = (): FileTreeSnapshot => this.snapshot;

  private changed(): void {
    this.listings = new Map(this.listings);
    this.expanded = new Set(this.expanded);
    this.snapshot = { listings: this.listings, expanded: this.expanded };
    this.changes.fire();
  }

  /** Loads a folder once (again after an error). */
  load(folder: string): Promise<void> {
    const current = this.listings.get(folder);
    if (current?.state === 'loaded') return Promise.resolve();
    const pending = this.inflight.get(folder);
    if (pending) return pending;
    this.listings.set(folder, { state: 'loading' });
    this.changed();
    const promise = this.list(folder)
      .then(
        (entries) => {
          this.listings.set(folder, { state: 'loaded', entries });
        },
        () => {
          this.listings.set(folder, { state: 'error' });
        },
      )
      .finally(() => {
        this.inflight.delete(folder);
        this.changed();
      });
    this.inflight.set(folder, promise);
    return promise;
  }

  async toggle(folder: string): Promise<void> {
    if (this.expanded.has(folder)) {
      this.expanded.delete(folder);
      this.changed();
      return;
    }
    this.expanded.add(folder);
    this.changed();
    await this.load(folder);
  }

  /**
   * Lists a loaded folder again (files were created, renamed or deleted in it). The old entries
   * stay shown until the new ones arrive (no flash of "Loading"); a failed listing keeps them.
   */
  refresh(folder: string): Promise<void> {
    if (this.listings.get(folder)?.state !== 'loaded') return Promise.resolve();
    // A listing already on its way may predate the change: list once more after it.
    const pending = this.inflight.get(folder);
    if (pending) return pending.then(() => this.refresh(folder));
    const promise = this.list(folder)
      .then(
        (entries) => {
          this.listings.set(folder, { state: 'loaded', entries });
        },
        () => undefined,
      )
      .finally(() => {
        this.inflight.delete(folder);
        this.changed();
      });
    this.inflight.set(folder, promise);
    return promise;
  }

  /** Lists every loaded folder again (files may have changed on disk). */
  async refreshAll(): Promise<void> {
    const loaded = [...this.listings].filter(([, listing]) => listing.state === 'loaded').map(([folder]) => folder);
    await Promise.all(loaded.map((folder) => this.refresh(folder)));
  }

  /** Loads and expands every ancestor of a file (S35). */
  async reveal(path: string): Promise<void> {
    for (const folder of ancestorDirectories(path)) {
      if (folder) this.expanded.add(folder);
      await this.load(folder);
    }
    this.changed();
  }
}
