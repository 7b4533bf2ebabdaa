import { FileSearch, Save } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { languageForPath } from '@kandev/protocol';
import { useFormFactor } from '../../app/hooks.js';
import { useSettings } from '../../services/useSettings.js';
import { useServices } from '../../services/ServicesContext.js';
import type { SessionScope } from '../../services/sessionScope.js';
import { useSessionConnection, useSessionScope } from '../../services/useSessionScope.js';
import { useWorkbench } from '../../services/windowState.js';
import type { MonacoApi } from '../../lib/lsp/providers/host.js';
import type { Position } from '../../lib/workspace/sessionWorkspace.js';
import { CodeEditor } from '../editor/CodeEditor.js';
import { baseName, EditorTabs } from '../editor/EditorTabs.js';
import { SaveBanners } from '../editor/SaveBanners.js';
import { FileTree } from '../files/FileTree.js';
import type { FileAction } from '../../lib/workspace/fileActions.js';
import { EditorChrome, EditorOverlays, SidebarOutline } from '../outline/mount.js';
import { SearchPanel } from '../search/SearchPanel.js';
import { lspPlacement } from '../statusbar/statusBarModel.js';
import { LspStatusControl } from '../status/LspStatusControl.js';
import { useLspAutoStart } from '../status/useLspAutoStart.js';
import { ProblemsPanel } from '../problems/ProblemsPanel.js';
import { HierarchyPanel } from '../hierarchy/HierarchyPanel.js';
import { useProblems } from '../problems/useProblems.js';
import { QuickOpen } from '../quickopen/QuickOpen.js';
import { EmptyState, ErrorState, LoadingState } from '../ui/States.js';
import { Splitter, useSidebarWidth } from './Splitter.js';
import { useTabMemory } from './useTabMemory.js';
import { MAX_OPEN_FILE_BYTES } from '@kandev/protocol';
import { mebibytes } from '../../lib/workspace/largeFile.js';
import { LargeFileNotice } from '../editor/LargeFileNotice.js';
import { useSnapshot } from '../../app/useSnapshot.js';
import type { GitFileChange } from '@kandev/protocol';
import { ChangesPanel } from '../live/ChangesPanel.js';
import { DiskChangeBar } from '../live/DiskChangeBar.js';
import { DiskCompareView } from '../live/DiskCompareView.js';
import { HeadDiffView } from '../live/HeadDiffView.js';
import { useEscapeClose } from '../live/useEscapeClose.js';
import { useGutterMarks } from '../live/useGutterMarks.js';
import { useLiveSnapshot, useSessionLive } from '../live/useSessionLive.js';

interface DesktopSessionProps {
  sessionId: string;
  initialFile?: string;
  initialPosition?: Position;
}

export function DesktopSession(props: DesktopSessionProps) {
  const { t } = useTranslation();
  const { loadMonaco } = useServices();
  const [monaco, setMonaco] = useState<MonacoApi | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    loadMonaco().then(
      (m) => live && setMonaco(m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [loadMonaco]);
  if (failed) return <ErrorState title={t('editor.loadEditorFailed')} />;
  if (!monaco) return <LoadingState label={t('editor.loadingEditor')} />;
  return <SessionScopeGate {...props} monaco={monaco} />;
}

/** Waits for the session's scope, which is acquired in an effect (never during render). */
function SessionScopeGate(props: DesktopSessionProps & { monaco: MonacoApi }) {
  const { t } = useTranslation();
  const scope = useSessionScope(props.sessionId, props.monaco);
  if (!scope) return <LoadingState label={t('editor.loadingEditor')} />;
  return <SessionEditor key={props.sessionId} {...props} scope={scope} />;
}

function SessionEditor({ sessionId, initialFile, initialPosition, monaco, scope }: DesktopSessionProps & { monaco: MonacoApi; scope: SessionScope }) {
  const { t } = useTranslation();
  const { api, runFileAction, activeEditor, workbench } = useServices();
  const workspace = scope.workspace;
  const fileActions = useMemo(
    () => ({ run: (action: FileAction) => runFileAction(sessionId, action), refresh: () => workspace.refreshFromDisk() }),
    [runFileAction, sessionId, workspace],
  );
  const { t: tw } = useTranslation('workbench');
  const snapshot = useSnapshot(workspace.onDidChange, workspace.getSnapshot);
  const active = snapshot.tabs.find((tab) => tab.path === snapshot.activePath);
  const language = snapshot.activePath ? languageForPath(snapshot.activePath) : undefined;
  const settings = useSettings();
  const form = useFormFactor();
  // A connection exists only for a supported file that has an editor tab (never while loading).
  const connection = useSessionConnection(scope, active ? language : undefined);
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
  /** A diff shown in place of the editor; `at` is the active path it belongs to (another one closes it). */
  const [diff, setDiff] = useState<{ kind: 'head'; change: GitFileChange; at: string | undefined } | { kind: 'disk'; path: string; at: string } | undefined>();
  useEffect(() => {
    if (diff && diff.at !== snapshot.activePath) setDiff(undefined);
  }, [diff, snapshot.activePath]);
  const openChange = (change: GitFileChange) => {
    if (change.status === 'deleted') {
      setDiff({ kind: 'head', change, at: snapshot.activePath });
      return;
    }
    setDiff({ kind: 'head', change, at: change.path });
    void workspace.open(change.path);
  };
  const headChange = diff?.kind === 'head' ? (liveSnapshot.changes.get(diff.change.path) ?? diff.change) : undefined;
  const gitMarks = liveSnapshot.git?.available ? { changes: liveSnapshot.changes, changedFolders: liveSnapshot.changedFolders } : undefined;
  const comparing = diff?.kind === 'disk' && active !== undefined && diff.path === active.path;
  // Escape closes a diff; focus goes back to what opened it (its row in Changes, or Compare).
  useEscapeClose(
    diff !== undefined,
    () => setDiff(undefined),
    () => {
      const opener = diff?.kind === 'head' ? `[data-testid="change-row"][data-path="${CSS.escape(diff.change.path)}"]` : '[data-testid="disk-compare"]';
      return document.querySelector<HTMLElement>(opener);
    },
  );
  useEffect(() => {
    // The comparison ends with the disk change it was about (kept, taken, saved).
    if (comparing && active?.disk !== 'changed') setDiff(undefined);
  }, [comparing, active?.disk]);

  useTabMemory(workspace, initialFile);
  useEffect(() => {
    if (initialFile) void workspace.open(initialFile, initialPosition);
    // Only when the view mounts: the deep link it was opened with.
  }, [workspace]);

  const { problemsOpen, quickOpen } = useWorkbench();
  const openPaths = snapshot.tabs.map((tab) => tab.path);
  const problems = useProblems(monaco, sessionId, openPaths);
  useEffect(() => {
    workbench.update({ problems: { sessionId, counts: problems.counts } });
  }, [workbench, sessionId, problems.counts]);
  useEffect(() => () => workbench.clearProblems(sessionId), [workbench, sessionId]);
  useEffect(() => () => workbench.update({ quickOpen: false }), [workbench]);
  const [sidebarWidth, setSidebarWidth] = useSidebarWidth();
  const listFiles = useCallback((folder: string) => api.listFiles(sessionId, folder), [api, sessionId]);

  const save = useCallback(() => {
    const path = workspace.getSnapshot().activePath;
    if (path) void workspace.save(path);
  }, [workspace]);

  // Ctrl/Cmd+S anywhere in the session view (Monaco handles it when focused; this covers the rest).
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

  const close = (path: string) => {
    if (workspace.isDirty(path) && !window.confirm(t('editor.confirmClose', { name: baseName(path) }))) return;
    workspace.close(path);
  };

  return (
    <div className="session-layout" style={{ '--sidebar-width': `${sidebarWidth}px` } as CSSProperties}>
      <aside className="session-sidebar" id="session-sidebar">
        <SearchPanel sessionId={sessionId} onOpenHit={(hit) => void workspace.open(hit.path, { lineNumber: hit.line, column: hit.column })} />
        <FileTree
          tree={workspace.tree}
          activePath={snapshot.activePath}
          onOpenFile={(path) => void workspace.open(path)}
          fileActions={fileActions}
          git={gitMarks}
        />
        <ChangesPanel live={liveSnapshot} onOpen={openChange} currentPath={headChange?.path} />
        <SidebarOutline workspace={workspace} path={active?.path} />
      </aside>
      <Splitter width={sidebarWidth} onResize={setSidebarWidth} controls="session-sidebar" />
      <section className="session-main">
        <EditorTabs tabs={snapshot.tabs} activePath={snapshot.activePath} onActivate={(path) => workspace.activate(path)} onClose={close} />
        <div className="editor-toolbar">
          <button type="button" className="btn btn-sm" data-testid="save" onClick={save} disabled={!active || active.saving}>
            <Save size={14} aria-hidden="true" />
            {active?.saving ? t('editor.saving') : t('editor.save')}
          </button>
          {active?.dirty && <span className="dirty-note">{t('editor.unsaved')}</span>}
          {language && connection && placement === 'toolbar' && (
            <LspStatusControl key={`${sessionId}:${language}`} connection={connection} language={language} surface={form === 'tablet' ? 'drawer' : 'popover'} />
          )}
        </div>
        {active && (
          <SaveBanners
            document={active}
            onReload={() => void workspace.reloadFromDisk(active.path)}
            onOverwrite={() => void workspace.overwrite(active.path)}
            onDismissError={() => workspace.dismissSaveError(active.path)}
          />
        )}
        {active && (
          <DiskChangeBar
            document={active}
            comparing={comparing}
            onCompare={() => setDiff(comparing ? undefined : { kind: 'disk', path: active.path, at: active.path })}
            onKeepMine={() => workspace.keepMine(active.path)}
            onTakeTheirs={() => void workspace.reloadFromDisk(active.path)}
            onCloseTab={() => close(active.path)}
          />
        )}
        {snapshot.activePath && snapshot.opening.has(snapshot.activePath) && (
          <p className="loading" role="status">
            {t('editor.opening', { path: snapshot.activePath })}
          </p>
        )}
        {snapshot.activePath && snapshot.openFailed.has(snapshot.activePath) && (
          <p role="alert" className="banner banner-error">
            {t('editor.openFailed', { path: snapshot.activePath })}
          </p>
        )}
        {snapshot.activePath && snapshot.binary.has(snapshot.activePath) && !headChange && (
          <p className="binary-notice" data-testid="binary-file" data-path={snapshot.activePath}>
            {t('editor.binary', { path: snapshot.activePath })}
          </p>
        )}
        {snapshot.activePath && snapshot.tooLarge.has(snapshot.activePath) && !headChange && (
          <p className="binary-notice" role="alert" data-testid="file-too-large" data-path={snapshot.activePath}>
            {t('editor.tooLarge', { path: snapshot.activePath, limit: mebibytes(MAX_OPEN_FILE_BYTES).replace(/\.0$/, '') })}
          </p>
        )}
        {active && <LargeFileNotice workspace={workspace} path={active.path} />}
        {active && <EditorChrome workspace={workspace} path={active.path} />}
        {headChange && live && (
          <HeadDiffView
            monaco={monaco}
            workspace={workspace}
            live={live}
            head={liveSnapshot.git?.available ? liveSnapshot.git.head : null}
            change={headChange}
            unreadable={snapshot.binary.has(headChange.path) ? 'binary' : snapshot.tooLarge.has(headChange.path) ? 'too_large' : undefined}
            onClose={() => setDiff(undefined)}
          />
        )}
        {comparing && active && (
          <DiskCompareView monaco={monaco} workspace={workspace} path={active.path} diskVersion={active.diskVersion} onClose={() => setDiff(undefined)} />
        )}
        {active ? (
          // Kept mounted under a diff (its view state, the status bar's file), just not shown.
          <div className="editor-host" style={{ display: diff ? 'none' : 'contents' }}>
            <CodeEditor
              monaco={monaco}
              workspace={workspace}
              path={active.path}
              revealSeq={snapshot.revealSeq}
              onSave={save}
              onShown={onShown}
              onHidden={onHidden}
            />
          </div>
        ) : (
          !diff &&
          !snapshot.activePath && (
            <EmptyState icon={<FileSearch size={32} />} title={t('editor.empty')} testId="editor-empty">
              {tw('shell.emptyEditorHint')}
            </EmptyState>
          )
        )}
        <HierarchyPanel workspace={workspace} />
        <ProblemsPanel
          view={problems}
          open={problemsOpen}
          onToggle={() => workbench.update({ problemsOpen: !problemsOpen })}
          onReveal={(problem) => void workspace.open(problem.path, { lineNumber: problem.range.startLineNumber, column: problem.range.startColumn })}
        />
      </section>
      <EditorOverlays workspace={workspace} />
      <QuickOpen
        sessionId={sessionId}
        open={quickOpen}
        onOpenChange={(open) => workbench.update({ quickOpen: open })}
        listFiles={listFiles}
        onPick={(path) => void workspace.open(path)}
      />
    </div>
  );
}
