/**
 * The editing UI's mount points in a session view, kept in one place so the shell only places
 * three elements: the Outline (sidebar), breadcrumbs (above the editor), and the overlays
 * (workspace symbol picker, edit confirmations). Editing notices are the shell's (EditingNotices.tsx).
 */
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { EditConfirmDialog } from './EditConfirmDialog.js';
import { OutlinePanel } from './OutlinePanel.js';
import { WorkspaceSymbolPicker } from './WorkspaceSymbolPicker.js';
import './outline.css';

export function SidebarOutline(props: { workspace: SessionWorkspace; path: string | undefined }) {
  return <OutlinePanel {...props} />;
}

export function EditorChrome(props: { workspace: SessionWorkspace; path: string }) {
  return <Breadcrumbs {...props} />;
}

export function EditorOverlays({ workspace }: { workspace: SessionWorkspace }) {
  return (
    <>
      <WorkspaceSymbolPicker workspace={workspace} />
      <EditConfirmDialog workspace={workspace} />
    </>
  );
}
