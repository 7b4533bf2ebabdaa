import { canonicalFileUri, fileUriToPath, pathToFileUri, relativePathInWorkspace } from '@kandev/protocol';

/**
 * Two URI spaces (docs/architecture.md section 7): Monaco models are session-scoped
 * (`kandev-session://<sessionId>/<workspace-relative path>`), so two sessions rooted at the same
 * task-host folder never share a model; servers only ever see the clean task-host `file://` URI.
 */
export const SESSION_MODEL_SCHEME = 'kandev-session';

/**
 * The read-only left-hand texts of a diff (HEAD, disk): never a session model, never a server's
 * document, and plain: no built-in language service answers for them either (builtins.ts).
 */
export const DIFF_TEXT_SCHEME = 'kandev-diff';

/** Components of a URI as Monaco's Uri.from takes them and Uri exposes them (decoded). */
export interface UriParts {
  scheme: string;
  authority: string;
  path: string;
}

export function sessionModelUriParts(sessionId: string, relPath: string): UriParts {
  return { scheme: SESSION_MODEL_SCHEME, authority: sessionId, path: `/${stripSlashes(relPath)}` };
}

/** The session and workspace-relative path of a model URI, or undefined for other URIs. */
export function parseSessionModelUri(uri: Pick<UriParts, 'scheme' | 'authority' | 'path'>): { sessionId: string; path: string } | undefined {
  if (uri.scheme !== SESSION_MODEL_SCHEME || !uri.authority) return undefined;
  const path = stripSlashes(uri.path);
  if (!path || path.split('/').includes('..')) return undefined;
  return { sessionId: uri.authority, path };
}

/** The task-host file URI of a workspace-relative path. */
export function serverFileUri(workspaceUri: string, relPath: string): string {
  const root = fileUriToPath(canonicalFileUri(workspaceUri)).replace(/\/+$/, '');
  const rel = stripSlashes(relPath);
  return pathToFileUri(rel ? `${root}/${rel}` : root || '/');
}

/** The workspace-relative path of a server URI, or undefined outside the workspace or for non-file URIs. */
export function workspaceRelativePath(workspaceUri: string, uri: string): string | undefined {
  try {
    const rel = relativePathInWorkspace(workspaceUri, uri);
    return rel ? rel : undefined;
  } catch {
    return undefined;
  }
}

function stripSlashes(p: string): string {
  return p.replace(/^\/+/, '').replace(/\/+$/, '');
}
