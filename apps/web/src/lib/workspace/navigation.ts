import { parseSessionModelUri, workspaceRelativePath, type UriParts } from '../lsp/uris.js';
import type { WorkspaceIdentityStore } from './workspaceIdentity.js';

export interface OpenTarget {
  sessionId: string;
  path: string;
}

/**
 * Where Monaco's editor opener should go (S36, S38): a session model URI opens that session's
 * file; a `file://` target (from a built-in provider) opens the matching file of the source
 * editor's session when it lies inside that session's workspace. Anything else is unhandled, so
 * Monaco can report it rather than have it silently swallowed.
 */
export function resolveOpenTarget(
  resource: UriParts & { toString(): string },
  sourceModelUri: UriParts | undefined,
  identities: Pick<WorkspaceIdentityStore, 'get'>,
): OpenTarget | undefined {
  const direct = parseSessionModelUri(resource);
  if (direct) return direct;
  if (resource.scheme !== 'file' || !sourceModelUri) return undefined;
  const source = parseSessionModelUri(sourceModelUri);
  if (!source) return undefined;
  const identity = identities.get(source.sessionId);
  if (!identity) return undefined;
  const path = workspaceRelativePath(identity.workspaceUri, resource.toString());
  return path ? { sessionId: source.sessionId, path } : undefined;
}

/** A Monaco opener selection or position -> the position to reveal. */
export function positionOf(selectionOrPosition: unknown): { lineNumber: number; column: number } | undefined {
  if (typeof selectionOrPosition !== 'object' || selectionOrPosition === null) return undefined;
  const s = selectionOrPosition as { lineNumber?: unknown; column?: unknown; startLineNumber?: unknown; startColumn?: unknown };
  if (typeof s.startLineNumber === 'number' && typeof s.startColumn === 'number') return { lineNumber: s.startLineNumber, column: s.startColumn };
  if (typeof s.lineNumber === 'number' && typeof s.column === 'number') return { lineNumber: s.lineNumber, column: s.column };
  return undefined;
}
