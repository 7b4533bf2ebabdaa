import { Emitter, type Disposable, type Event } from '@kandev/kit';
import { ApiRequestError, type KandevApi } from '../../api/kandevApi.js';
import type { SyncedDocument } from '../lsp/documentSync.js';
import type { SessionModels, TextModel } from './sessionModels.js';
import type { SessionTabs } from './sessionTabs.js';

export type SaveResult = 'saved' | 'conflict' | 'failed' | 'skipped';

/**
 * Saving a session's tabs with the version they were read at, and the conflict flow when the disk
 * moved on (409): overwrite with this buffer, or reload the disk version as one undoable edit.
 * S24/S25: the LSP layer hears didSave only after the files API confirmed the write.
 */
export class SaveFlow implements Disposable {
  private readonly saved = new Emitter<{ document: SyncedDocument; text: string }>();
  readonly onDidSave: Event<{ document: SyncedDocument; text: string }> = this.saved.event;

  constructor(
    private readonly sessionId: string,
    private readonly api: Pick<KandevApi, 'readFile' | 'writeFile'>,
    private readonly tabs: SessionTabs,
    private readonly models: SessionModels,
    private readonly changed: () => void,
    /** Runs before a save takes its snapshot (format on save); failures never block the save. */
    private readonly beforeSave?: (path: string, model: TextModel) => Promise<void>,
  ) {}

  /** Saves the current snapshot with its base version (or over `overwriteVersion`; null: whatever is there). */
  async save(path: string, overwriteVersion?: string | null): Promise<SaveResult> {
    const tab = this.tabs.find(path);
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
    const base = overwriteVersion === undefined ? entry.baseVersion : (overwriteVersion ?? undefined);
    tab.saving = true;
    tab.saveFailed = false;
    this.changed();
    let outcome;
    try {
      outcome = await this.api.writeFile(this.sessionId, path, text, base);
    } catch (err) {
      tab.saving = false;
      tab.saveFailed = true;
      // Too large is said as such (with the limit): trying again cannot help, unlike a lost connection.
      tab.saveTooLarge = err instanceof ApiRequestError && err.code === 'too_large' ? (err.limit ?? 0) : undefined;
      this.changed();
      return 'failed';
    }
    tab.saving = false;
    if (!outcome.ok) {
      tab.conflict = { currentVersion: outcome.currentVersion };
      this.changed();
      return 'conflict';
    }
    this.models.markSaved(entry, outcome.version, altVersion);
    tab.conflict = undefined;
    tab.disk = undefined;
    this.changed();
    if (this.tabs.includes(tab)) this.saved.fire({ document: tab.document, text });
    return 'saved';
  }

  /** Conflict: write this buffer over the disk version the server reported. */
  overwrite(path: string): Promise<SaveResult> {
    return this.save(path, this.tabs.find(path)?.conflict?.currentVersion ?? null);
  }

  /**
   * Conflict: take the disk version. Applied as one undoable edit, so the local version is one
   * Undo away: nothing is lost.
   */
  async reloadFromDisk(path: string): Promise<void> {
    const tab = this.tabs.find(path);
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
    this.models.markSaved(entry, file.version);
    tab.conflict = undefined;
    tab.disk = undefined;
    tab.saveFailed = false;
    this.changed();
  }

  dismissError(path: string): void {
    const tab = this.tabs.find(path);
    if (!tab) return;
    tab.saveFailed = false;
    this.changed();
  }

  dispose(): void {
    this.saved.dispose();
  }
}
