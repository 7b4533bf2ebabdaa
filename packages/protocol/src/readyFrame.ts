import type { WorkspaceIdentity } from './frames.js';
import { isRecord } from './records.js';

export type WorkspaceIdentityResult = { ok: true; identity: WorkspaceIdentity } | { ok: false; error: string };

/**
 * The workspace identity of a `ready` frame, checked the same way on every hop (the broker reading
 * agentctl's frame, the web reading the broker's). One rule: a frame whose workspaceUri or
 * workspacePath is not a string, or whose repoSubpaths is not an array of strings, is refused
 * whole with an error naming the field; nothing is dropped or guessed, since a workspace folder
 * list with an entry silently missing would make the server index the wrong roots.
 */
export function readyFrameIdentity(frame: unknown): WorkspaceIdentityResult {
  if (!isRecord(frame)) return { ok: false, error: 'ready frame is not an object' };
  const { workspaceUri, workspacePath, repoSubpaths } = frame;
  if (typeof workspaceUri !== 'string') return { ok: false, error: 'ready frame: workspaceUri must be a string' };
  if (typeof workspacePath !== 'string') return { ok: false, error: 'ready frame: workspacePath must be a string' };
  if (!Array.isArray(repoSubpaths) || !repoSubpaths.every((p): p is string => typeof p === 'string')) {
    return { ok: false, error: 'ready frame: repoSubpaths must be an array of strings' };
  }
  return { ok: true, identity: { workspaceUri, workspacePath, repoSubpaths: [...repoSubpaths] } };
}
