import type { FileChange } from '@kandev/protocol';
import { ApiRequestError, type KandevApi } from '../../api/kandevApi.js';
import { parentFolder } from './fileActions.js';
import type { FileTreeModel } from './fileTree.js';
import type { SessionModels } from './sessionModels.js';
import type { SessionTabs, Tab } from './sessionTabs.js';

/** The version the files API gives a missing file: a save against it recreates the file. */
export const MISSING_FILE_VERSION = '';

/** More files created in one window than this (a checkout, an install) is no rename of an open file. */
const MAX_RENAME_CANDIDATES = 32;

/** What following the disk needs of a session (the workspace hands in its parts). */
export interface DiskFollowHost {
  sessionId: string;
  api: Pick<KandevApi, 'readFile'>;
  tabs: SessionTabs;
  models: SessionModels;
  tree: FileTreeModel;
  open(path: string): Promise<void>;
  close(path: string): void;
  activate(path: string): void;
  changed(): void;
}

/**
 * Keeps one session's tabs and Files tree in step with its disk, from the changes the task host
 * reports (or, on Refresh, an overflow or a reconnect, by checking everything). Nothing typed is
 * ever replaced: a tab without unsaved changes takes the disk text (its server hears a normal
 * didChange); one with unsaved changes is marked (`tab.disk`) and the person chooses; a deleted
 * file keeps its tab and text, marked deleted, and saving it recreates the file.
 */
export class DiskFollower {
  constructor(private readonly host: DiskFollowHost) {}

  /** One coalesced window of changes, in order. */
  async apply(changes: readonly FileChange[]): Promise<void> {
    const { tabs } = this.host;
    const folders = new Set<string>();
    const check = new Set<string>();
    const moves: Array<[string, string]> = [];
    for (const change of changes) {
      folders.add(parentFolder(change.path));
      if (change.kind === 'renamed') {
        folders.add(parentFolder(change.from));
        moves.push([change.from, change.path]);
        continue;
      }
      // A deleted path is reported as a file (it is gone, nobody can tell): open tabs below it say it was a folder.
      for (const path of this.openPathsUnder(change.path, change.directory || change.kind === 'deleted')) check.add(path);
    }
    const work: Promise<void>[] = [...folders].map((folder) => this.host.tree.refresh(folder));
    const inferred = [...(await this.inferRenames(changes)), ...(await this.inferFolderRenames(changes))];
    for (const [from, to] of [...moves, ...inferred]) {
      work.push(this.followRename(from, to));
      for (const path of this.openPathsUnder(from, true)) check.delete(path);
    }
    for (const path of check) if (tabs.has(path)) work.push(this.follow(path));
    await Promise.all(work);
  }

  /** Everything may have changed (Refresh, an overflow, a reconnect): every listing and every tab is checked. */
  async catchUp(): Promise<void> {
    const paths = this.host.tabs.list().map((tab) => tab.path);
    await Promise.all([this.host.tree.refreshAll(), ...paths.map((path) => this.follow(path))]);
  }

  /** Keep mine: the next save goes over the version now on disk (nothing typed changes). */
  keepMine(path: string): void {
    const tab = this.host.tabs.find(path);
    const entry = this.host.models.get(path);
    if (!tab || !entry || tab.disk?.kind !== 'changed') return;
    this.host.models.markSaved(entry, tab.disk.version, entry.savedAltVersion);
    tab.disk = undefined;
    this.host.changed();
  }

  /** A save or reload of this tab ended: a change heard while it ran is checked now. */
  settled(path: string): void {
    const tab = this.host.tabs.find(path);
    if (!tab?.recheck || tab.saving) return;
    tab.recheck = false;
    void this.follow(path);
  }

  /**
   * Watchers report a rename as a deletion and a creation. An open file deleted in a window where
   * a file with exactly its disk text was created was moved there: its tab follows it.
   */
  private async inferRenames(changes: readonly FileChange[]): Promise<Array<[string, string]>> {
    const { tabs, models } = this.host;
    const last = new Map<string, FileChange['kind']>();
    for (const change of changes) if (!change.directory) last.set(change.path, change.kind);
    const gone = [...last].filter(([path, kind]) => kind === 'deleted' && tabs.has(path)).map(([path]) => path);
    if (gone.length === 0) return [];
    const created = [...last].filter(([path, kind]) => kind === 'created' && !tabs.has(path)).map(([path]) => path);
    if (created.length === 0 || created.length > MAX_RENAME_CANDIDATES) return [];
    const versions = await Promise.all(
      created.map((path) =>
        this.host.api.readFile(this.host.sessionId, path).then(
          (file) => file.version,
          () => undefined,
        ),
      ),
    );
    const renames: Array<[string, string]> = [];
    const taken = new Set<string>();
    for (const from of gone) {
      const base = models.get(from)?.baseVersion;
      const index = created.findIndex((path, i) => !taken.has(path) && base !== undefined && versions[i] === base);
      if (index < 0) continue;
      const to = created[index] as string;
      taken.add(to);
      renames.push([from, to]);
    }
    return renames;
  }

  /**
   * A renamed folder is reported as the old folder deleted and the new one created, nothing about
   * the files inside. A deleted path with open tabs below it, in a window where a folder was created
   * that holds the first of those files with exactly its disk text, was moved there: its tabs follow.
   */
  private async inferFolderRenames(changes: readonly FileChange[]): Promise<Array<[string, string]>> {
    const { tabs, models } = this.host;
    const last = new Map<string, FileChange>();
    for (const change of changes) last.set(change.path, change);
    const gone = [...last.values()].filter((c) => c.kind === 'deleted').map((c) => c.path);
    const created = [...last.values()].filter((c) => c.kind === 'created' && c.directory).map((c) => c.path);
    if (gone.length === 0 || created.length === 0 || created.length > MAX_RENAME_CANDIDATES) return [];
    const renames: Array<[string, string]> = [];
    const taken = new Set<string>();
    for (const from of gone) {
      const probe = tabs.list().find((tab) => tab.path.startsWith(`${from}/`) && !!models.get(tab.path)?.baseVersion);
      if (!probe) continue;
      const base = models.get(probe.path)?.baseVersion;
      const rest = probe.path.slice(from.length);
      for (const to of created) {
        if (taken.has(to)) continue;
        const version = await this.host.api.readFile(this.host.sessionId, to + rest).then(
          (file) => file.version,
          () => undefined,
        );
        if (version === undefined || version !== base) continue;
        taken.add(to);
        renames.push([from, to]);
        break;
      }
    }
    return renames;
  }

  private openPathsUnder(path: string, directory: boolean): string[] {
    const paths = this.host.tabs.list().map((tab) => tab.path);
    return paths.filter((p) => p === path || (directory && p.startsWith(`${path}/`)));
  }

  /** Brings one open tab in step with its file on disk. */
  private async follow(path: string): Promise<void> {
    const { tabs, models } = this.host;
    let file: { content: string; version: string } | undefined;
    try {
      file = await this.host.api.readFile(this.host.sessionId, path);
    } catch (err) {
      if (!(err instanceof ApiRequestError && err.status === 404)) return;
    }
    const tab = tabs.find(path);
    const entry = models.get(path);
    if (!tab || !entry) return;
    // A save of ours is on its way: what was read may be its own write; look again once it answered.
    if (tab.saving) {
      tab.recheck = true;
      return;
    }
    if (!file) return this.markDeleted(tab);
    if (file.version === entry.baseVersion) {
      if (tab.disk) {
        tab.disk = undefined;
        this.host.changed();
      }
      return;
    }
    // Typing that began while the file was read wins: the disk text is taken only onto a clean buffer.
    if (!models.isDirty(path)) {
      models.replaceFromDisk(entry, file);
      if (tab.disk) tab.disk = undefined;
      this.host.changed();
      return;
    }
    if (tab.disk?.kind === 'changed' && tab.disk.version === file.version) return;
    tab.disk = { kind: 'changed', version: file.version };
    this.host.changed();
  }

  private markDeleted(tab: Tab): void {
    if (tab.disk?.kind === 'deleted') return;
    const entry = this.host.models.get(tab.path);
    // Saving again recreates the file, and refuses if someone else recreated it meanwhile.
    if (entry) this.host.models.markSaved(entry, MISSING_FILE_VERSION, entry.savedAltVersion);
    tab.disk = { kind: 'deleted' };
    this.host.changed();
  }

  /**
   * A file (or a folder with files) was renamed on disk: its tabs follow to the new path, unsaved
   * text included (carried over as an edit of the new file), and focus follows the active file.
   */
  private async followRename(from: string, to: string): Promise<void> {
    const { tabs, models } = this.host;
    const moved = tabs
      .list()
      .map((tab) => tab.path)
      .filter((p) => p === from || p.startsWith(`${from}/`))
      .map((path) => [path, to + path.slice(from.length)] as const);
    if (moved.length === 0) return;
    const previous = tabs.activePath;
    for (const [path, next] of moved) {
      const mine = models.isDirty(path) ? models.get(path)?.model.getValue() : undefined;
      await this.host.open(next);
      const entry = models.get(next);
      if (!tabs.has(next) || !entry) {
        // The new file cannot be opened (gone again, binary): the old tab stays, marked deleted.
        const tab = tabs.find(path);
        if (tab) this.markDeleted(tab);
        continue;
      }
      if (mine !== undefined && entry.model.getValue() !== mine) {
        entry.model.pushStackElement();
        entry.model.pushEditOperations([], [{ range: entry.model.getFullModelRange(), text: mine }], () => null);
        entry.model.pushStackElement();
      }
      this.host.close(path);
    }
    const active = moved.find(([path]) => path === previous)?.[1] ?? previous;
    if (active && tabs.has(active)) this.host.activate(active);
  }
}
