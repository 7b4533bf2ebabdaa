import { FileTree } from '../files/FileTree.js';
import { ChangesPanel } from '../live/ChangesPanel.js';
import { SidebarOutline } from '../outline/mount.js';
import { SearchPanel } from '../search/SearchPanel.js';
import type { DesktopSessionController } from './useDesktopSessionController.js';

/** The desktop session's sidebar: search, the Files tree, git Changes and the outline. */
export function SessionSidebar({ session }: { session: DesktopSessionController }) {
  const { sessionId, workspace, snapshot, active, fileActions, gitMarks, liveSnapshot, diff } = session;
  return (
    <aside className="session-sidebar" id="session-sidebar">
      <SearchPanel sessionId={sessionId} onOpenHit={(hit) => void workspace.open(hit.path, { lineNumber: hit.line, column: hit.column })} />
      <FileTree
        tree={workspace.tree}
        activePath={snapshot.activePath}
        onOpenFile={(path) => void workspace.open(path)}
        fileActions={fileActions}
        git={gitMarks}
      />
      <ChangesPanel live={liveSnapshot} onOpen={diff.openChange} currentPath={diff.headChange?.path} />
      <SidebarOutline workspace={workspace} path={active?.path} />
    </aside>
  );
}
