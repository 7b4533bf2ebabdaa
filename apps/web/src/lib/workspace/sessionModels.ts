import { toDisposable, type Disposable } from '@kandev/kit';
import type * as Monaco from 'monaco-editor';
import type { KandevApi } from '../../api/kandevApi.js';
import { sessionModelUriParts } from '../lsp/uris.js';
import { monacoLanguageForPath } from '../monaco/languages.js';
import { ApiRequestError } from '../../api/kandevApi.js';
import { BinaryFileError, looksBinary } from './binaryFile.js';
import { FileTooLargeError, largeFileOf, type LargeFile } from './largeFile.js';

type MonacoApi = typeof Monaco;
export type TextModel = Monaco.editor.ITextModel;

export interface ModelEntry {
  path: string;
  model: TextModel;
  /** File version (sha256) of what the model was loaded from or last saved as. */
  baseVersion: string;
  /** Monaco's alternative version id at that point: equal means clean (undo back counts too). */
  savedAltVersion: number;
  refs: number;
  subscription: Disposable;
  /** Opened in large-file mode (no language-server sync, colouring or folding), and why. */
  large?: LargeFile;
}

/** What a content change of a loaded model means for the session around it. */
export interface ModelContentChange {
  entry: ModelEntry;
  dirty: boolean;
  /** Dirtiness flipped with this change (the tab's marker must follow). */
  dirtyChanged: boolean;
  /** The change replays what a workspace edit wrote to disk: not an edit to keep in a tab. */
  fromDisk: boolean;
}

/**
 * One session's Monaco models (`kandev-session://<sessionId>/<path>`), reference counted: a tab
 * holds one reference, a language-server navigation target (placeholder) another, and a model goes
 * away with its last reference. Concurrent loads of one path share one read.
 */
export class SessionModels implements Disposable {
  private readonly entries = new Map<string, ModelEntry>();
  private readonly loading = new Map<string, Promise<ModelEntry>>();
  private readonly syncingFromDisk = new Set<string>();

  constructor(
    private readonly sessionId: string,
    private readonly api: Pick<KandevApi, 'readFile'>,
    private readonly monaco: MonacoApi,
    private readonly onContentChange: (change: ModelContentChange) => void,
  ) {}

  get(path: string): ModelEntry | undefined {
    return this.entries.get(path);
  }

  /** Whether any model holds text that differs from what was last read or saved. */
  anyDirty(): boolean {
    for (const path of this.entries.keys()) if (this.isDirty(path)) return true;
    return false;
  }

  isDirty(path: string): boolean {
    const entry = this.entries.get(path);
    return entry !== undefined && entry.model.getAlternativeVersionId() !== entry.savedAltVersion;
  }

  /** A reference to the session model of a path, loading it from the files API when needed. */
  async acquire(path: string): Promise<Disposable> {
    let entry = this.entries.get(path);
    if (!entry) {
      let pending = this.loading.get(path);
      if (!pending) {
        pending = this.load(path).finally(() => this.loading.delete(path));
        this.loading.set(path, pending);
      }
      entry = await pending;
    }
    return this.reference(entry);
  }

  /** One more reference to a loaded model; disposing the last one disposes the model. */
  reference(entry: ModelEntry): Disposable {
    entry.refs++;
    return toDisposable(() => {
      entry.refs--;
      if (entry.refs === 0) this.disposeEntry(entry);
    });
  }

  /** The model's text is what is on disk now, at `version`. */
  markSaved(entry: ModelEntry, version: string, altVersion = entry.model.getAlternativeVersionId()): void {
    entry.baseVersion = version;
    entry.savedAltVersion = altVersion;
  }

  /** Undoes back to the saved text (a tab closed with its changes discarded). */
  revert(entry: ModelEntry): void {
    // A model's own undo stack is undone synchronously; the promise in undo()'s type is for the
    // cross-model edits of the undo service, which a single model's history never holds.
    while (entry.model.getAlternativeVersionId() !== entry.savedAltVersion && entry.model.canUndo()) void entry.model.undo();
  }

  /** Replaces a model's text with what a workspace edit wrote to disk; it stays clean. */
  replaceFromDisk(entry: ModelEntry, file: { content: string; version: string }): void {
    this.syncingFromDisk.add(entry.path);
    try {
      if (entry.model.getValue() !== file.content) entry.model.setValue(file.content);
    } finally {
      this.syncingFromDisk.delete(entry.path);
    }
    this.markSaved(entry, file.version);
  }

  private async load(path: string): Promise<ModelEntry> {
    const file = await this.api.readFile(this.sessionId, path).catch((err: unknown) => {
      throw err instanceof ApiRequestError && err.status === 413 ? new FileTooLargeError(path) : err;
    });
    const existing = this.entries.get(path);
    if (existing) return existing;
    if (looksBinary(file.content)) throw new BinaryFileError(path);
    const large = largeFileOf(file.content);
    const uri = this.monaco.Uri.from(sessionModelUriParts(this.sessionId, path));
    // Plain text in large-file mode: no tokenization of a file that big.
    const model = this.monaco.editor.getModel(uri) ?? this.monaco.editor.createModel(file.content, large ? 'plaintext' : monacoLanguageForPath(path), uri);
    const entry: ModelEntry = {
      path,
      model,
      baseVersion: file.version,
      savedAltVersion: model.getAlternativeVersionId(),
      refs: 0,
      subscription: { dispose: () => undefined },
      ...(large ? { large } : {}),
    };
    let wasDirty = false;
    entry.subscription = model.onDidChangeContent(() => {
      // Text taken from disk is clean: replaceFromDisk marks it saved right after this event.
      const fromDisk = this.syncingFromDisk.has(path);
      const dirty = fromDisk ? false : this.isDirty(path);
      const dirtyChanged = dirty !== wasDirty;
      wasDirty = dirty;
      this.onContentChange({ entry, dirty, dirtyChanged, fromDisk });
    });
    this.entries.set(path, entry);
    return entry;
  }

  private disposeEntry(entry: ModelEntry): void {
    if (this.entries.get(entry.path) !== entry) return;
    this.entries.delete(entry.path);
    entry.subscription.dispose();
    entry.model.dispose();
  }

  /** Disposes every model still loaded (navigation placeholders included). */
  dispose(): void {
    for (const entry of [...this.entries.values()]) {
      entry.subscription.dispose();
      entry.model.dispose();
    }
    this.entries.clear();
  }
}
