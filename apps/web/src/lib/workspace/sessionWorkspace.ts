import { Emitter, type Disposable, type Event } from '@kandev/kit';
import { languageForPath, type LanguageId } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import type { KandevApi } from '../../api/kandevApi.js';
import type { OpenDocumentSource, SyncedDocument } from '../lsp/documentSync.js';
import type { EditTargets } from '../lsp/edits/apply.js';
import { modelDocument } from '../monaco/modelDocument.js';
import type { FileChange } from '@kandev/protocol';
import { BinaryFileError } from './binaryFile.js';
import { FileTooLargeError, type LargeFile } from './largeFile.js';
import { DiskFollower } from './diskFollow.js';
import { sessionEditTargets } from './editTargets.js';
import { FileTreeModel } from './fileTree.js';
import { PendingReveal, type Position } from './pendingReveal.js';
import { SaveFlow, type SaveResult } from './saving.js';
import { SessionModels, type ModelContentChange, type TextModel } from './sessionModels.js';
import { SessionTabs } from './sessionTabs.js';

export { BinaryFileError, looksBinary } from './binaryFile.js';
export type { Position } from './pendingReveal.js';
export type { SaveResult } from './saving.js';

type MonacoApi = typeof Monaco;

export interface DocumentView {
  path: string;
  dirty: boolean;
  saving: boolean;
  /** A save was refused with 409: the banner offers reload or overwrite. */
  conflict: boolean;
  saveFailed: boolean;
  /** With saveFailed: the save was refused as too large, over this many bytes (the banner says so). */
  saveTooLarge: number | undefined;
  /** The file changed on disk under unsaved changes, or was deleted (see DiskFollower). */
  disk: 'changed' | 'deleted' | undefined;
  /** The disk version a `changed` mark is about. */
  diskVersion: string | undefined;
}

export interface WorkspaceSnapshot {
  tabs: DocumentView[];
  activePath: string | undefined;
  opening: ReadonlySet<string>;
  openFailed: ReadonlySet<string>;
  /** Files that look binary: shown as a static notice, never as a Monaco model (S53). */
  binary: ReadonlySet<string>;
  /** Files larger than the editor opens (MAX_OPEN_FILE_BYTES). */
  tooLarge: ReadonlySet<string>;
  /** Bumped whenever a reveal is requested, so the mounted editor applies it at once (S37). */
  revealSeq: number;
}

/**
 * One session's editor state in this window, composed of one part per concern: the Files tree,
 * tabs (`sessionTabs`), reference-counted session models (`sessionModels`), saving and conflicts
 * (`saving`), the pending reveal (`pendingReveal`) and the workspace-edit targets (`editTargets`).
 * It publishes one snapshot for React and is the LSP layer's source of open documents per language.
 */
export class SessionWorkspace implements Disposable {
  readonly tree: FileTreeModel;
  private readonly tabs: SessionTabs;
  private readonly models: SessionModels;
  private readonly saving: SaveFlow;
  private readonly reveal = new PendingReveal();
  private readonly follower: DiskFollower;
  private snapshot: WorkspaceSnapshot;
  private readonly changes = new Emitter<void>();
  /** Tabs, activity, opening state, dirtiness or a reveal changed: read getSnapshot again. */
  readonly onDidChange: Event<void> = this.changes.event;

  constructor(
    readonly sessionId: string,
    private readonly api: Pick<KandevApi, 'readFile' | 'writeFile' | 'listFiles'> & Partial<Pick<KandevApi, 'applyFiles'>>,
    monaco: MonacoApi,
    /** Runs before a save takes its snapshot (format on save); failures never block the save. */
    beforeSave?: (path: string, model: TextModel) => Promise<void>,
  ) {
    this.tree = new FileTreeModel((folder) => api.listFiles(sessionId, folder));
    const changed = () => this.changed();
    this.tabs = new SessionTabs(changed);
    this.models = new SessionModels(sessionId, api, monaco, (change) => this.onModelContent(change));
    this.saving = new SaveFlow(sessionId, api, this.tabs, this.models, changed, beforeSave);
    this.follower = new DiskFollower({
      sessionId,
      api,
      tabs: this.tabs,
      models: this.models,
      tree: this.tree,
      open: (path) => this.open(path),
      close: (path) => this.close(path),
      activate: (path) => this.activate(path),
      changed,
    });
    this.snapshot = this.buildSnapshot();
  }

  getSnapshot = (): WorkspaceSnapshot => this.snapshot;

  private changed(): void {
    this.snapshot = this.buildSnapshot();
    this.changes.fire();
  }

  private buildSnapshot(): WorkspaceSnapshot {
    return {
      tabs: this.tabs.list().map((t) => ({
        path: t.path,
        dirty: this.isDirty(t.path),
        saving: t.saving,
        conflict: t.conflict !== undefined,
        saveFailed: t.saveFailed,
        saveTooLarge: t.saveFailed ? t.saveTooLarge : undefined,
        disk: t.disk?.kind,
        diskVersion: t.disk?.kind === 'changed' ? t.disk.version : undefined,
      })),
      activePath: this.tabs.activePath,
      opening: new Set(this.tabs.opening),
      openFailed: new Set(this.tabs.openFailed),
      binary: new Set(this.tabs.binary),
      tooLarge: new Set(this.tabs.tooLarge),
      revealSeq: this.reveal.seq,
    };
  }

  private onModelContent({ entry, dirty, dirtyChanged, fromDisk }: ModelContentChange): void {
    // Edited outside a tab (e.g. in a peek view): give it a tab so the edit is never lost.
    if (dirty && !fromDisk && !this.tabs.has(entry.path)) this.addTab(entry.path, this.models.reference(entry));
    if (dirtyChanged) this.changed();
  }

  hasUnsavedChanges(): boolean {
    return this.models.anyDirty();
  }

  isDirty(path: string): boolean {
    return this.models.isDirty(path);
  }

  modelOf(path: string): TextModel | undefined {
    return this.models.get(path)?.model;
  }

  /** Why a loaded file is in large-file mode, when it is. */
  largeFile(path: string): LargeFile | undefined {
    return this.models.get(path)?.large;
  }

  /** The open documents of one language, for that (session, language) connection. */
  documentSource(language: LanguageId): OpenDocumentSource {
    // A file in large-file mode never reaches the language server (no didOpen, so no requests about it).
    const mine = (doc: SyncedDocument) => languageForPath(doc.path) === language && !this.models.get(doc.path)?.large;
    const filtered =
      <T>(event: Event<T>, pick: (value: T) => SyncedDocument): Event<T> =>
      (listener) =>
        event((value) => {
          if (mine(pick(value))) listener(value);
        });
    return {
      documents: () =>
        this.tabs
          .list()
          .map((t) => t.document)
          .filter(mine),
      onDidOpen: filtered(this.tabs.onDidOpen, (d) => d),
      onDidClose: filtered(this.tabs.onDidClose, (d) => d),
      onDidSave: filtered(this.saving.onDidSave, (e) => e.document),
    };
  }

  /** Opens (or focuses) a file's tab, reveals it in the Files tree, and optionally a position in it. */
  async open(path: string, position?: Position): Promise<void> {
    if (position) this.reveal.request(path, position);
    const tabs = this.tabs;
    tabs.activePath = path;
    tabs.openFailed.delete(path);
    tabs.binary.delete(path);
    tabs.tooLarge.delete(path);
    void this.tree.reveal(path);
    if (tabs.has(path) || tabs.opening.has(path)) {
      this.changed();
      return;
    }
    tabs.opening.add(path);
    this.changed();
    let ref: Disposable;
    try {
      ref = await this.models.acquire(path);
    } catch (err) {
      tabs.opening.delete(path);
      if (err instanceof BinaryFileError) tabs.binary.add(path);
      else if (err instanceof FileTooLargeError) tabs.tooLarge.add(path);
      else tabs.openFailed.add(path);
      this.changed();
      return;
    }
    tabs.opening.delete(path);
    if (tabs.has(path)) {
      ref.dispose();
      this.changed();
      return;
    }
    this.addTab(path, ref);
  }

  private addTab(path: string, ref: Disposable): void {
    const entry = this.models.get(path);
    if (!entry) throw new Error(`no model for ${path}`);
    this.tabs.add(path, ref, modelDocument(path, entry.model));
  }

  activate(path: string): void {
    if (!this.tabs.has(path)) return;
    this.tabs.activePath = path;
    void this.tree.reveal(path);
    this.changed();
  }

  /** Closes a tab (the caller confirmed discarding unsaved changes). didClose goes out before the model can go. */
  close(path: string): void {
    if (!this.tabs.has(path)) return;
    // A model kept alive by a navigation reference must not keep discarded edits nobody can see;
    // revert while the tab is still open, so the server follows along before didClose.
    const entry = this.models.get(path);
    if (entry && entry.refs > 1 && this.isDirty(path)) this.models.revert(entry);
    const tab = this.tabs.remove(path);
    if (!tab) return;
    this.reveal.forget(path);
    this.tabs.closeDocument(tab);
    this.changed();
  }

  /** The reveal waiting for this path, if any (see PendingReveal.take). */
  takeReveal(path: string): Position | undefined {
    return this.reveal.take(path);
  }

  /** A reference to the session model of a path, loading it from the files API when needed. */
  acquireModel(path: string): Promise<Disposable> {
    return this.models.acquire(path);
  }

  /** Saves the current snapshot with its base version. S24/S25: the LSP layer hears of it only on success. */
  save(path: string, overwriteVersion?: string | null): Promise<SaveResult> {
    return this.saving.save(path, overwriteVersion).finally(() => this.follower.settled(path));
  }

  /** Conflict: write this buffer over the disk version the server reported. */
  overwrite(path: string): Promise<SaveResult> {
    return this.saving.overwrite(path).finally(() => this.follower.settled(path));
  }

  /** Conflict, or Take theirs: take the disk version, as one undoable edit (the local text is one Undo away). */
  reloadFromDisk(path: string): Promise<void> {
    return this.saving.reloadFromDisk(path);
  }

  /** Keep mine: the file changed on disk under unsaved changes; the next save goes over the new disk version. */
  keepMine(path: string): void {
    this.follower.keepMine(path);
  }

  /** Changes the task host saw on disk (one coalesced window): the tree and open tabs follow. */
  applyDiskChanges(changes: readonly FileChange[]): Promise<void> {
    return this.follower.apply(changes);
  }

  /** What the page has in view, for a task host that has to poll: open files and expanded folders. */
  inView(): { files: string[]; folders: string[] } {
    return { files: this.tabs.list().map((t) => t.path), folders: ['', ...this.tree.getSnapshot().expanded] };
  }

  dismissSaveError(path: string): void {
    this.saving.dismissError(path);
  }

  /**
   * Catches up with changes made on disk by others (an agent, git, a terminal) when nothing told
   * of them one by one (Refresh, the page shown again, the events stream back after a loss or
   * overflowing): every loaded folder is listed again and every tab is checked. A tab without
   * unsaved changes takes the disk text (its server hears it as a change); a tab with unsaved
   * changes is marked, and the person chooses; a file that is gone keeps its tab and text, marked
   * deleted. Nothing typed is lost.
   */
  refreshFromDisk(): Promise<void> {
    return this.follower.catchUp();
  }

  /** What the LSP workspace-edit path edits in this session (docs/editing.md). */
  editTargets(): EditTargets {
    return sessionEditTargets({
      sessionId: this.sessionId,
      api: this.api,
      tabs: this.tabs,
      models: this.models,
      tree: this.tree,
      open: (path) => this.open(path),
      close: (path) => this.close(path),
      activate: (path) => this.activate(path),
    });
  }

  dispose(): void {
    this.tabs.dispose();
    this.models.dispose();
    this.saving.dispose();
    this.changes.dispose();
  }
}
