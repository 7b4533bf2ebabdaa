import { Emitter, type Disposable, type Event } from '@kandev/kit';
import type { SyncedDocument } from '../lsp/documentSync.js';

export interface Tab {
  path: string;
  /** The tab's reference on its session model. */
  ref: Disposable;
  document: SyncedDocument;
  saving: boolean;
  saveFailed: boolean;
  /** The last save was refused as larger than the server takes (413): the limit in bytes. */
  saveTooLarge?: number;
  /** A save was refused with 409; `currentVersion` is what the disk holds. */
  conflict?: { currentVersion?: string };
  /**
   * The file moved on on disk under unsaved changes (`changed`, at `version`), or is gone
   * (`deleted`): the person chooses; nothing typed is replaced.
   */
  disk?: { kind: 'changed'; version: string } | { kind: 'deleted' };
  /** A disk change was heard while a save ran: checked again once it answered. */
  recheck?: boolean;
}

/**
 * A session's editor tabs in order, the active path, and the files being opened, that failed to
 * open or look binary. Opening and closing tabs is what the LSP layer hears as didOpen/didClose.
 */
export class SessionTabs implements Disposable {
  private tabs: Tab[] = [];
  activePath: string | undefined;
  readonly opening = new Set<string>();
  readonly openFailed = new Set<string>();
  /** Files that look binary: shown as a static notice, never as a Monaco model (S53). */
  readonly binary = new Set<string>();
  /** Files larger than the editor opens: shown as a notice that says why and what to do. */
  readonly tooLarge = new Set<string>();
  private readonly opened = new Emitter<SyncedDocument>();
  private readonly closed = new Emitter<SyncedDocument>();
  readonly onDidOpen: Event<SyncedDocument> = this.opened.event;
  readonly onDidClose: Event<SyncedDocument> = this.closed.event;

  /** `changed` tells the workspace to publish a new snapshot. */
  constructor(private readonly changed: () => void) {}

  list(): readonly Tab[] {
    return this.tabs;
  }

  find(path: string): Tab | undefined {
    return this.tabs.find((t) => t.path === path);
  }

  has(path: string): boolean {
    return this.tabs.some((t) => t.path === path);
  }

  /** Still open (a save or format that awaited may find its tab closed). */
  includes(tab: Tab): boolean {
    return this.tabs.includes(tab);
  }

  /** Appends a tab; the snapshot shows it before the LSP layer hears didOpen. */
  add(path: string, ref: Disposable, document: SyncedDocument): Tab {
    const tab: Tab = { path, ref, document, saving: false, saveFailed: false };
    this.tabs = [...this.tabs, tab];
    this.changed();
    this.opened.fire(tab.document);
    return tab;
  }

  /**
   * Removes a tab: the neighbour becomes active, didClose goes out, then the model reference is
   * released (so the model can go only after the server heard of it). The caller publishes.
   */
  remove(path: string): Tab | undefined {
    const index = this.tabs.findIndex((t) => t.path === path);
    if (index < 0) return undefined;
    const tab = this.tabs[index] as Tab;
    this.tabs = this.tabs.filter((t) => t !== tab);
    if (this.activePath === path) this.activePath = (this.tabs[index] ?? this.tabs[index - 1])?.path;
    return tab;
  }

  /** Tells the LSP layer a removed tab's document is closed, then releases its model. */
  closeDocument(tab: Tab): void {
    this.closed.fire(tab.document);
    tab.ref.dispose();
  }

  /** Every tab closes (didClose first, then the model references); no snapshot is published. */
  dispose(): void {
    const tabs = this.tabs;
    for (const tab of tabs) this.closed.fire(tab.document);
    for (const tab of tabs) tab.ref.dispose();
    this.tabs = [];
    this.opened.dispose();
    this.closed.dispose();
  }
}
