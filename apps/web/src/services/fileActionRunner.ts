import { applyEditWithParticipants } from '../lib/lsp/editing/applyFlow.js';
import type { EditingRegistry } from '../lib/lsp/editing/registry.js';
import { applyWorkspaceEdit } from '../lib/lsp/edits/apply.js';
import type { ApplyEditResult } from '../lib/lsp/edits/applyResult.js';
import { workspaceRelativePath } from '../lib/lsp/uris.js';
import { fileActionEdit, type FileAction } from '../lib/workspace/fileActions.js';
import { ancestorDirectories } from '../lib/workspace/fileTree.js';
import type { SessionWorkspace } from '../lib/workspace/sessionWorkspace.js';
import type { WorkspaceIdentity } from '@kandev/protocol';

/**
 * Stands for the workspace root while no server has told its URI (no connection got `ready` yet):
 * there is then no participant either, and the edit's URIs only go back to paths.
 */
const UNANNOUNCED_WORKSPACE_URI = 'file:///kandev-workspace';

export interface FileActionDeps {
  sessionId: string;
  workspace: Pick<SessionWorkspace, 'editTargets' | 'tree' | 'open'>;
  identity: WorkspaceIdentity | undefined;
  editing: Pick<EditingRegistry, 'confirmations' | 'fileOperations'>;
  text: (key: string, params?: Record<string, unknown>) => string;
}

/**
 * A Files panel action, applied like a server's resource operation: the session's servers that
 * filter it in are asked first (typescript-language-server answers a rename with the import
 * updates), everything is applied all or nothing, then they are told. A new file is shown in the
 * tree and opened.
 */
export async function runFileAction(action: FileAction, deps: FileActionDeps): Promise<ApplyEditResult> {
  const workspaceUri = deps.identity?.workspaceUri ?? UNANNOUNCED_WORKSPACE_URI;
  const toPath = (uri: string) => workspaceRelativePath(workspaceUri, uri);
  const result = await applyEditWithParticipants(fileActionEdit(action, workspaceUri), {
    sessionId: deps.sessionId,
    toPath,
    confirmations: deps.editing.confirmations,
    participants: () => deps.editing.fileOperations.ofSession(deps.sessionId),
    apply: (edit, versions) => applyWorkspaceEdit(edit, toPath, deps.workspace.editTargets(), deps.text, versions),
    text: deps.text,
    // The person is right here: nothing ends under them while it applies.
    ended: { onAbort: () => undefined },
  });
  if (result.applied && action.kind === 'create') {
    // Folders made on the way show up in listings already loaded; then the file is revealed and opened.
    for (const folder of ancestorDirectories(action.path)) await deps.workspace.tree.refresh(folder);
    await deps.workspace.tree.reveal(action.path);
    await deps.workspace.open(action.path);
  }
  return result;
}
