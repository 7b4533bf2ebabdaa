import type { KandevApi } from '../../api/kandevApi.js';
import type { EditTargets, EditableModel } from '../lsp/edits/apply.js';
import { ancestorDirectories, type FileTreeModel } from './fileTree.js';
import type { SessionModels, TextModel } from './sessionModels.js';
import type { SessionTabs } from './sessionTabs.js';

/** What the workspace-edit path needs of a session beyond its tabs and models. */
export interface EditTargetsHost {
  sessionId: string;
  api: Pick<KandevApi, 'readFile'> & Partial<Pick<KandevApi, 'applyFiles'>>;
  tabs: SessionTabs;
  models: SessionModels;
  tree: FileTreeModel;
  open(path: string): Promise<void>;
  close(path: string): void;
  activate(path: string): void;
}

/**
 * What the LSP workspace-edit path edits in a session: models of open tabs in place (one undo stop
 * each), every other file through the files API (docs/editing.md).
 */
export function sessionEditTargets(host: EditTargetsHost): EditTargets {
  const { tabs, models } = host;
  /** Open tabs at a path or, for a folder, inside it. */
  const openPathsUnder = (path: string): string[] =>
    tabs
      .list()
      .map((tab) => tab.path)
      .filter((p) => p === path || p.startsWith(`${path}/`));
  return {
    openPaths: () => tabs.list().map((tab) => tab.path),
    openModel: (path) => {
      if (!tabs.has(path)) return undefined;
      const model = models.get(path)?.model;
      return model ? editableModel(model, () => models.isDirty(path)) : undefined;
    },
    readFile: (path) => host.api.readFile(host.sessionId, path),
    applyFiles: async (operations) => {
      if (!host.api.applyFiles) throw new Error('files apply is not available');
      return host.api.applyFiles(host.sessionId, operations);
    },
    afterFilesApplied: ({ written, renamed, deleted }) => {
      // Loaded models without a tab (navigation previews) follow the disk.
      for (const [path, file] of written) {
        const entry = models.get(path);
        if (!entry || tabs.has(path)) continue;
        models.replaceFromDisk(entry, file);
      }
      for (const [from, to] of renamed) {
        // Tabs follow their files to the new path (a renamed folder takes its files along); focus
        // stays where it was, or follows the active file.
        const previous = tabs.activePath;
        const moved = openPathsUnder(from).map((path) => [path, to + path.slice(from.length)] as const);
        for (const [path] of moved) host.close(path);
        void Promise.all(moved.map(([, next]) => host.open(next))).then(() => {
          const active = moved.find(([path]) => path === previous)?.[1] ?? previous;
          if (moved.length > 0 && active) host.activate(active);
        });
      }
      for (const path of deleted) for (const open of openPathsUnder(path)) host.close(open);
      const folders = new Set<string>();
      for (const path of [...written.keys(), ...renamed.flat(), ...deleted]) {
        const parents = ancestorDirectories(path);
        folders.add(parents[parents.length - 1] ?? '');
      }
      for (const folder of folders) void host.tree.refresh(folder);
    },
  };
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
          range: {
            startLineNumber: e.range.start.line + 1,
            startColumn: e.range.start.character + 1,
            endLineNumber: e.range.end.line + 1,
            endColumn: e.range.end.character + 1,
          },
          text: e.newText,
        })),
        () => null,
      );
      model.pushStackElement();
    },
  };
}
