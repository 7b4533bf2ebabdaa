import { languageForPath, type LanguageId } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import type { KandevApi } from '../../api/kandevApi.js';
import { Emitter, toDisposable, type Disposable, type Event } from '@kandev/kit';
import type { OpenDocumentSource, SyncedDocument } from '../lsp/documentSync.js';
import { sessionModelUriParts } from '../lsp/uris.js';
import { monacoLanguageForPath } from '../monaco/languages.js';
import { modelDocument } from '../monaco/modelDocument.js';
import type { EditTargets, EditableModel } from '../lsp/edits/apply.js';
import { ancestorDirectories, FileTreeModel } from './fileTree.js';

type MonacoApi = typeof Monaco;
type TextModel = Monaco.editor.ITextModel;

export interface Position {
  lineNumber: number;
  column: number;
}

export interface DocumentView {
  path: string;
  dirty: boolean;
  saving: boolean;
  /** A save was refused with 409: the banner offers reload or overwrite. */
  conflict: boolean;
  saveFailed: boolean;
}

export interface WorkspaceSnapshot {
  tabs: DocumentView[];
  activePath: string | undefined;
  opening: ReadonlySet<string>;
  openFailed: ReadonlySet<string>;
  /** Files that look binary: shown as a static notice, never as a Monaco model (S53). */
  binary: ReadonlySet<string>;
  /** Bumped whenever a reveal is requested, so the mounted editor applies it at once (S37). */
  revealSeq: number;
}

interface ModelEntry {
  path: string;
  model: TextModel;
  /** File version (sha256) of what the model was loaded from or last saved as. */
  baseVersion: string;
  /** Monaco's alternative version id at that point: equal means clean (undo back counts too). */
  savedAltVersion: number;
  refs: number;
  subscription: Disposable;
}

interface Tab {
  path: string;
  ref: Disposable;
  document: SyncedDocument;
  saving: boolean;
  saveFailed: boolean;
  conflict?: { currentVersion?: string };
}

export type SaveResult = 'saved' | 'conflict' | 'failed' | 'skipped';

/** A file whose content is not text (it contains NUL characters): no model is made for it. */
export class BinaryFileError extends Error {
  constructor(readonly path: string) {
    super(`binary file: ${path}`);
    this.name = 'BinaryFileError';
  }
}

export function looksBinary(content: string): boolean {
  return content.includes('\u0000');
}

/**
 * One session's editor state in this window: the Files tree, tabs, and session-scoped Monaco
 * models (`kandev-session://<sessionId>/<path>`). Models are reference counted: a tab holds one
 * reference, a language-server navigation target (placeholder) another, and a model goes away
 * with its last reference. It is the LSP layer's source of open documents for each language.
 */
export class SessionWorkspace implements Disposable {
  readonly tree: FileTreeModel;
  private readonly models = new Map<string, ModelEntry>();
  private readonly loading = new Map<string, Promise<ModelEntry>>();
  private tabs: Tab[] = [];
  private active: string | undefined;
  private readonly opening = new Set<string>();
  private readonly openFailed = new Set<string>();
  private readonly binary = new Set<string>();
  private pendingReveal: { path: string; position: Position; taken?: boolean } | undefined;
  /** Models being replaced with what a workspace edit wrote to disk: not an edit to keep in a tab. */
  private readonly syncingFromDisk = new Set<string>();
  private revealSeq = 0;
  private snapshot: WorkspaceSnapshot;
  private readonly changes = new Emitter<void>();
  /** Tabs, activity, opening state, dirtiness or a reveal changed: read getSnapshot again. */
  readonly onDidChange: Event<void> = this.changes.event;
  private readonly opened = new Emitter<SyncedDocument>();
  private readonly closed = new Emitter<SyncedDocument>();
  private readonly saved = new Emitter<{ document: SyncedDocument; text: string }>();

  constructor(
    readonly sessionId: string,
    private readonly api: Pick<KandevApi, 'readFile' | 'writeFile' | 'listFiles'> & Partial<Pick<KandevApi, 'applyFiles'>>,
    private readonly monaco: MonacoApi,
    /** Runs before a save takes its snapshot (format on save); failures never block the save. */
    private readonly beforeSave?: (path: string, model: TextModel) => Promise<void>,
  ) {
    this.tree = new FileTreeModel((folder) => api.listFiles(sessionId, folder));
    this.snapshot = this.buildSnapshot();
  }

  getSnapshot = (): WorkspaceSnapshot => this.snapshot;


  private changed(): void {
    this.snapshot = this.buildSnapshot();
    this.changes.fire();
  }

  private buildSnapshot(): WorkspaceSnapshot {
    return {
      tabs: this.tabs.map((t) => ({ path: t.path, dirty: this.isDirty(t.path), saving: t.saving, conflict: t.conflict !== undefined, saveFailed: t.saveFailed })),
      activePath: this.active,
      opening: new Set(this.opening),
      openFailed: new Set(this.openFailed),
      binary: new Set(this.binary),
      revealSeq: this.revealSeq,
    };
  }

  isDirty(path: string): boolean {
    const entry = this.models.get(path);
    return entry !== undefined && entry.model.getAlternativeVersionId() !== entry.savedAltVersion;
  }

  modelOf(path: string): TextModel | undefined {
    return this.models.get(path)?.model;
  }

  /** The open documents of one language, for that (session, language) connection. */
  documentSource(language: LanguageId): OpenDocumentSource {
    const mine = (doc: SyncedDocument) => languageForPath(doc.path) === language;
    const filtered = <T>(event: Event<T>, pick: (value: T) => SyncedDocument): Event<T> => (listener) => event((value) => {
      if (mine(pick(value))) listener(value);
    });
    return {
      documents: () => this.tabs.map((t) => t.document).filter(mine),
      onDidOpen: filtered(this.opened.event, (d) => d),
      onDidClose: filtered(this.closed.event, (d) => d),
      onDidSave: filtered(this.saved.event, (e) => e.document),
    };
  }

  /** Opens (or focuses) a file's tab, reveals it in the Files tree, and optionally a position in it. */
  async open(path: string, position?: Position): Promise<void> {
    if (position) {
      this.pendingReveal = { path, position };
      this.revealSeq++;
    }
    this.active = path;
    this.openFailed.delete(path);
    this.binary.delete(path);
    void this.tree.reveal(path);
    if (this.tabs.some((t) => t.path === path) || this.opening.has(path)) {
      this.changed();
      return;
    }
    this.opening.add(path);
    this.changed();
    let ref: Disposable;
    try {
      ref = await this.acquireModel(path);
    } catch (err) {
      this.opening.delete(path);
      if (err instanceof BinaryFileError) this.binary.add(path);
      else this.openFailed.add(path);
      this.changed();
      return;
    }
    this.opening.delete(path);
    if (this.tabs.some((t) => t.path === path)) {
      ref.dispose();
      this.changed();
      return;
    }
    this.addTab(path, ref);
  }

  private addTab(path: string, ref: Disposable): Tab {
    const entry = this.models.get(path) as ModelEntry;
    const tab: Tab = { path, ref, document: modelDocument(path, entry.model), saving: false, saveFailed: false };
    this.tabs = [...this.tabs, tab];
    this.changed();
    this.opened.fire(tab.document);
    return tab;
  }

  activate(path: string): void {
    if (!this.tabs.some((t) => t.path === path)) return;
    this.active = path;
    void this.tree.reveal(path);
    this.changed();
  }

  /** Closes a tab (the caller confirmed discarding unsaved changes). didClose goes out before the model can go. */
  close(path: string): void {
    const index = this.tabs.findIndex((t) => t.path === path);
    if (index < 0) return;
    const tab = this.tabs[index] as Tab;
    // A model kept alive by a navigation reference must not keep discarded edits nobody can see;
    // revert while the tab is still open, so the server follows along before didClose.
    const entry = this.models.get(path);
    if (entry && entry.refs > 1 && this.isDirty(path)) this.revert(entry);
    this.tabs = this.tabs.filter((t) => t !== tab);
    if (this.active === path) this.active = (this.tabs[index] ?? this.tabs[index - 1])?.path;
    if (this.pendingReveal?.path === path) this.pendingReveal = undefined;
    this.closed.fire(tab.document);
    tab.ref.dispose();
    this.changed();
  }

  /**
   * The reveal waiting for this path, if any. It is consumed when the current task's microtasks
   * run, not at once: React may mount an editor twice in one commit (StrictMode re-runs effects on
   * mount), and the editor that stays must apply the reveal too. A later mount finds nothing.
   */
  takeReveal(path: string): Position | undefined {
    const pending = this.pendingReveal;
    if (pending?.path !== path) return undefined;
    if (!pending.taken) {
      pending.taken = true;
      queueMicrotask(() => {
        if (this.pendingReveal === pending) this.pendingReveal = undefined;
      });
    }
    return pending.position;
  }

  /** A reference to the session model of a path, loading it from the files API when needed. */
  async acquireModel(path: string): Promise<Disposable> {
    let entry = this.models.get(path);
    if (!entry) {
      let pending = this.loading.get(path);
      if (!pending) {
        pending = this.loadModel(path).finally(() => this.loading.delete(path));
        this.loading.set(path, pending);
      }
      entry = await pending;
    }
    const held = entry;
    held.refs++;
    return toDisposable(() => {
      held.refs--;
      if (held.refs === 0) this.disposeModel(held);
    });
  }

  private async loadModel(path: string): Promise<ModelEntry> {
    const file = await this.api.readFile(this.sessionId, path);
    const existing = this.models.get(path);
    if (existing) return existing;
    if (looksBinary(file.content)) throw new BinaryFileError(path);
    const uri = this.monaco.Uri.from(sessionModelUriParts(this.sessionId, path));
    const model = this.monaco.editor.getModel(uri) ?? this.monaco.editor.createModel(file.content, monacoLanguageForPath(path), uri);
    const entry: ModelEntry = { path, model, baseVersion: file.version, savedAltVersion: model.getAlternativeVersionId(), refs: 0, subscription: { dispose: () => undefined } };
    let wasDirty = false;
    entry.subscription = model.onDidChangeContent(() => {
      const dirty = this.isDirty(path);
      if (dirty && !this.syncingFromDisk.has(path) && !this.tabs.some((t) => t.path === path)) {
        // Edited outside a tab (e.g. in a peek view): give it a tab so the edit is never lost.
        entry.refs++;
        this.addTab(path, toDisposable(() => {
          entry.refs--;
          if (entry.refs === 0) this.disposeModel(entry);
        }));
      }
      if (dirty !== wasDirty) {
        wasDirty = dirty;
        this.changed();
      }
    });
    this.models.set(path, entry);
    return entry;
  }

  private disposeModel(entry: ModelEntry): void {
    if (this.models.get(entry.path) !== entry) return;
    this.models.delete(entry.path);
    entry.subscription.dispose();
    entry.model.dispose();
  }

  private revert(entry: ModelEntry): void {
    while (entry.model.getAlternativeVersionId() !== entry.savedAltVersion && entry.model.canUndo()) entry.model.undo();
  }

  /** Saves the current snapshot with its base version. S24/S25: the LSP layer hears of it only on success. */
  async save(path: string, overwriteVersion?: string | null): Promise<SaveResult> {
    const tab = this.tabs.find((t) => t.path === path);
    const entry = this.models.get(path);
    if (!tab || !entry || tab.saving) return 'skipped';
    if (this.beforeSave && overwriteVersion === undefined) {
      try {
        await this.beforeSave(path, entry.model);
      } catch {
        // formatting is a courtesy: the save goes on with the text as it is
      }
      if (!this.tabs.includes(tab)) return 'skipped';
    }
    const text = entry.model.getValue();
    const altVersion = entry.model.getAlternativeVersionId();
    const base = overwriteVersion === undefined ? entry.baseVersion : overwriteVersion ?? undefined;
    tab.saving = true;
    tab.saveFailed = false;
    this.changed();
    let outcome;
    try {
      outcome = await this.api.writeFile(this.sessionId, path, text, base);
    } catch {
      tab.saving = false;
      tab.saveFailed = true;
      this.changed();
      return 'failed';
    }
    tab.saving = false;
    if (!outcome.ok) {
      tab.conflict = { currentVersion: outcome.currentVersion };
      this.changed();
      return 'conflict';
    }
    entry.baseVersion = outcome.version;
    entry.savedAltVersion = altVersion;
    tab.conflict = undefined;
    this.changed();
    if (this.tabs.includes(tab)) this.saved.fire({ document: tab.document, text });
    return 'saved';
  }

  /** Conflict: write this buffer over the disk version the server reported. */
  overwrite(path: string): Promise<SaveResult> {
    const tab = this.tabs.find((t) => t.path === path);
    return this.save(path, tab?.conflict?.currentVersion ?? null);
  }

  /**
   * Conflict: take the disk version. Applied as one undoable edit, so the local version is one
   * Undo away: nothing is lost.
   */
  async reloadFromDisk(path: string): Promise<void> {
    const tab = this.tabs.find((t) => t.path === path);
    const entry = this.models.get(path);
    if (!tab || !entry) return;
    let file;
    try {
      file = await this.api.readFile(this.sessionId, path);
    } catch {
      tab.saveFailed = true;
      this.changed();
      return;
    }
    const model = entry.model;
    if (model.getValue() !== file.content) {
      model.pushStackElement();
      model.pushEditOperations([], [{ range: model.getFullModelRange(), text: file.content }], () => null);
      model.pushStackElement();
    }
    entry.baseVersion = file.version;
    entry.savedAltVersion = model.getAlternativeVersionId();
    tab.conflict = undefined;
    tab.saveFailed = false;
    this.changed();
  }

  /**
   * What the LSP workspace-edit path edits in this session: models of open tabs in place (one
   * undo stop each), every other file through the files API (docs/editing.md).
   */
  editTargets(): EditTargets {
    return {
      openModel: (path) => {
        if (!this.tabs.some((t) => t.path === path)) return undefined;
        const model = this.models.get(path)?.model;
        return model ? editableModel(model, () => this.isDirty(path)) : undefined;
      },
      readFile: (path) => this.api.readFile(this.sessionId, path),
      applyFiles: async (operations) => {
        if (!this.api.applyFiles) throw new Error('files apply is not available');
        return this.api.applyFiles(this.sessionId, operations);
      },
      afterFilesApplied: ({ written, renamed, deleted }) => {
        // Loaded models without a tab (navigation previews) follow the disk.
        for (const [path, file] of written) {
          const entry = this.models.get(path);
          if (!entry || this.tabs.some((t) => t.path === path)) continue;
          this.syncingFromDisk.add(path);
          try {
            if (entry.model.getValue() !== file.content) entry.model.setValue(file.content);
          } finally {
            this.syncingFromDisk.delete(path);
          }
          entry.baseVersion = file.version;
          entry.savedAltVersion = entry.model.getAlternativeVersionId();
        }
        for (const [from, to] of renamed) {
          if (this.tabs.some((t) => t.path === from)) {
            // The tab follows its file to the new path; focus stays where it was.
            const previous = this.active;
            this.close(from);
            void this.open(to).then(() => {
              if (previous && previous !== from) this.activate(previous);
            });
          }
        }
        for (const path of deleted) if (this.tabs.some((t) => t.path === path)) this.close(path);
        const folders = new Set<string>();
        for (const path of [...written.keys(), ...renamed.flat(), ...deleted]) {
          const parents = ancestorDirectories(path);
          folders.add(parents[parents.length - 1] ?? '');
        }
        for (const folder of folders) void this.tree.refresh(folder);
      },
    };
  }

  dismissSaveError(path: string): void {
    const tab = this.tabs.find((t) => t.path === path);
    if (!tab) return;
    tab.saveFailed = false;
    this.changed();
  }

  dispose(): void {
    for (const tab of this.tabs) this.closed.fire(tab.document);
    for (const tab of this.tabs) tab.ref.dispose();
    this.tabs = [];
    for (const entry of [...this.models.values()]) {
      entry.subscription.dispose();
      entry.model.dispose();
    }
    this.models.clear();
    this.opened.dispose();
    this.closed.dispose();
    this.saved.dispose();
    this.changes.dispose();
  }
}

/** An open model as the workspace-edit path sees it: LSP text edits applied as one undo stop. */
function editableModel(model: TextModel, isDirty: () => boolean): EditableModel {
  return {
    getVersionId: () => model.getVersionId(),
    isDirty,
    applyEdits(edits) {
      model.pushStackElement();
      model.pushEditOperations(
        [],
        edits.map((e) => ({
          range: { startLineNumber: e.range.start.line + 1, startColumn: e.range.start.character + 1, endLineNumber: e.range.end.line + 1, endColumn: e.range.end.character + 1 },
          text: e.newText,
        })),
        () => null,
      );
      model.pushStackElement();
    },
  };
}
