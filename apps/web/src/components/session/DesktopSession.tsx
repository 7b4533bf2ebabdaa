import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonacoApi } from '../../lib/lsp/providers/host.js';
import type { Position } from '../../lib/workspace/sessionWorkspace.js';
import { useServices } from '../../services/ServicesContext.js';
import type { SessionScope } from '../../services/sessionScope.js';
import { countRenderForTests } from '../../services/testHooks.js';
import { useSessionScope } from '../../services/useSessionScope.js';
import { EditorTabs } from '../editor/EditorTabs.js';
import { HierarchyPanel } from '../hierarchy/HierarchyPanel.js';
import { EditorOverlays } from '../outline/mount.js';
import { SessionProblems } from '../problems/SessionProblems.js';
import { QuickOpen } from '../quickopen/QuickOpen.js';
import { OutputPanel, sessionOutputConnections } from '../servers/OutputPanel.js';
import { ErrorState, LoadingState } from '../ui/States.js';
import { ActiveFileNotices } from './ActiveFileNotices.js';
import { EditorStage } from './EditorStage.js';
import { EditorToolbar } from './EditorToolbar.js';
import { SessionSidebar } from './SessionSidebar.js';
import { Splitter } from './Splitter.js';
import { useDesktopSessionController } from './useDesktopSessionController.js';

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

/** The desktop session view's layout; its state and effects are useDesktopSessionController's. */
function SessionEditor(props: DesktopSessionProps & { monaco: MonacoApi; scope: SessionScope }) {
  const session = useDesktopSessionController(props);
  const { sessionId, workspace, scope, connection, openPaths } = session;
  // Test builds count this layout's renders: a finding must not re-render it (see SessionProblems).
  if (import.meta.env.KANDEV_TEST_HOOKS) countRenderForTests('session-layout');
  return (
    <div className="session-layout" style={{ '--sidebar-width': `${session.sidebarWidth}px` } as CSSProperties}>
      <SessionSidebar session={session} />
      <Splitter width={session.sidebarWidth} onResize={session.setSidebarWidth} controls="session-sidebar" />
      <section className="session-main">
        <EditorTabs
          tabs={session.snapshot.tabs}
          activePath={session.snapshot.activePath}
          onActivate={(path) => workspace.activate(path)}
          onClose={session.close}
        />
        <EditorToolbar session={session} />
        <ActiveFileNotices session={session} />
        <EditorStage session={session} />
        <HierarchyPanel workspace={workspace} />
        <SessionProblems
          monaco={session.monaco}
          sessionId={sessionId}
          openPaths={openPaths}
          open={session.problemsOpen}
          onToggle={session.toggleProblems}
          onReveal={(problem) => void workspace.open(problem.path, { lineNumber: problem.range.startLineNumber, column: problem.range.startColumn })}
        />
        <OutputPanel connections={sessionOutputConnections(scope, connection, openPaths)} />
      </section>
      <EditorOverlays workspace={workspace} />
      <QuickOpen
        sessionId={sessionId}
        open={session.quickOpen}
        onOpenChange={session.setQuickOpen}
        listFiles={session.listFiles}
        onPick={(path) => void workspace.open(path)}
      />
    </div>
  );
}
