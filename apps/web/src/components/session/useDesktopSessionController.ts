import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { languageForPath } from '@kandev/protocol';
import { useFormFactor } from '../../app/hooks.js';
import { useSnapshot } from '../../app/useSnapshot.js';
import type { MonacoApi } from '../../lib/lsp/providers/host.js';
import type { FileAction } from '../../lib/workspace/fileActions.js';
import type { Position } from '../../lib/workspace/sessionWorkspace.js';
import { useServices } from '../../services/ServicesContext.js';
import type { SessionScope } from '../../services/sessionScope.js';
import { useSessionConnection } from '../../services/useSessionScope.js';
import { useSettings } from '../../services/useSettings.js';
import { useWorkbenchValue } from '../../services/windowState.js';
import { baseName } from '../editor/EditorTabs.js';
import { useGutterMarks } from '../live/useGutterMarks.js';
import { useLiveSnapshot, useSessionLive } from '../live/useSessionLive.js';
import { useLspAutoStart } from '../status/useLspAutoStart.js';
import { lspPlacement } from '../statusbar/statusBarModel.js';
import { useSidebarWidth } from './Splitter.js';
import { useDiffView } from './useDiffView.js';
import { useTabMemory } from './useTabMemory.js';

export interface DesktopSessionInput {
  sessionId: string;
  initialFile?: string;
  initialPosition?: Position;
  monaco: MonacoApi;
  scope: SessionScope;
}

/** Everything the desktop session's panes show and do; the state and effects behind it live in the hook. */
export type DesktopSessionController = ReturnType<typeof useDesktopSessionController>;

/**
 * The desktop session view's state and effects: the workspace snapshot, the active file's language
 * connection, the live workspace and its diffs, the window's workbench state, the
 * sidebar width and the keyboard save. DesktopSession only lays out what this returns.
 */
export function useDesktopSessionController({ sessionId, initialFile, initialPosition, monaco, scope }: DesktopSessionInput) {
  const { t } = useTranslation();
  const { api, runFileAction, activeEditor, workbench } = useServices();
  const workspace = scope.workspace;
  const fileActions = useMemo(
    () => ({ run: (action: FileAction) => runFileAction(sessionId, action), refresh: () => workspace.refreshFromDisk() }),
    [runFileAction, sessionId, workspace],
  );
  const snapshot = useSnapshot(workspace.onDidChange, workspace.getSnapshot);
  const active = snapshot.tabs.find((tab) => tab.path === snapshot.activePath);
  const language = snapshot.activePath ? languageForPath(snapshot.activePath) : undefined;
  const settings = useSettings();
  const form = useFormFactor();
  // A connection exists for a supported file that has an editor tab or is loading into one: the
  // language is known from the name, so the server starts (lease, initialize) while the content is
  // still on its way, and didOpen follows once the tab has its document.
  const loading = snapshot.activePath !== undefined && snapshot.opening.has(snapshot.activePath);
  const connection = useSessionConnection(scope, active || loading ? language : undefined);
  useLspAutoStart(connection, language);
  const placement = settings ? lspPlacement(settings, form) : undefined;

  // The status bar follows the Monaco editor of this session; leaving the session clears it.
  const onShown = useCallback(
    (path: string, cursor: { line: number; column: number }) => {
      const lang = languageForPath(path);
      // Called from the editor's effects and events, so creating the connection here is safe.
      activeEditor.set({ sessionId, path, language: lang, connection: lang && !scope.isDisposed ? scope.connection(lang) : undefined, cursor });
    },
    [sessionId, scope, activeEditor],
  );
  const onHidden = useCallback(() => activeEditor.clear({ sessionId }), [sessionId, activeEditor]);
  useEffect(() => onHidden, [onHidden]);

  // The live workspace: git marks, the Changes panel, diffs against HEAD and disk, gutter marks.
  const live = useSessionLive(sessionId);
  const liveSnapshot = useLiveSnapshot(live);
  useGutterMarks(workspace, live, liveSnapshot, active?.path);
  const diff = useDiffView(workspace, snapshot.activePath, active, liveSnapshot);
  const gitMarks = liveSnapshot.git?.available ? { changes: liveSnapshot.changes, changedFolders: liveSnapshot.changedFolders } : undefined;

  useTabMemory(workspace, initialFile);
  useEffect(() => {
    if (initialFile) void workspace.open(initialFile, initialPosition);
    // Only when the view mounts: the deep link it was opened with.
  }, [workspace]);

  // Only the two values this view lays out by: the Problems counts, which change with every
  // diagnostics publication, are SessionProblems' alone, so a finding does not re-render the session.
  const problemsOpen = useWorkbenchValue((state) => state.problemsOpen);
  const quickOpen = useWorkbenchValue((state) => state.quickOpen);
  const openPaths = snapshot.tabs.map((tab) => tab.path);
  useEffect(() => () => workbench.update({ quickOpen: false }), [workbench]);
  const [sidebarWidth, setSidebarWidth] = useSidebarWidth();
  const listFiles = useCallback((folder: string) => api.listFiles(sessionId, folder), [api, sessionId]);

  const save = useCallback(() => {
    const path = workspace.getSnapshot().activePath;
    if (path) void workspace.save(path);
  }, [workspace]);
  useSaveShortcut(save);

  const close = (path: string) => {
    if (workspace.isDirty(path) && !window.confirm(t('editor.confirmClose', { name: baseName(path) }))) return;
    workspace.close(path);
  };

  return {
    sessionId,
    monaco,
    scope,
    workspace,
    snapshot,
    /** The active tab's document, once it has one. */
    active,
    language,
    /** The active language's connection: only for a supported file that has an editor tab. */
    connection,
    /** Where the language-server status control goes (undefined until settings load). */
    placement,
    form,
    openPaths,
    fileActions,
    live,
    liveSnapshot,
    /** Git marks for the Files tree, when the workspace is a git repository. */
    gitMarks,
    diff,
    problemsOpen,
    quickOpen,
    sidebarWidth,
    setSidebarWidth,
    listFiles,
    save,
    /** Closes a tab, asking first when it has unsaved changes. */
    close,
    /** The Monaco editor of this session is shown (the status bar follows it) or hidden. */
    onShown,
    onHidden,
    toggleProblems: () => workbench.update({ problemsOpen: !problemsOpen }),
    setQuickOpen: (open: boolean) => workbench.update({ quickOpen: open }),
  };
}

/** Ctrl/Cmd+S anywhere in the session view (Monaco handles it when focused; this covers the rest). */
function useSaveShortcut(save: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);
}
