import type { WorkspaceIdentity } from './frames.js';
import { isRecord } from './records.js';

export type WorkspaceIdentityResult = { ok: true; identity: WorkspaceIdentity } | { ok: false; error: string };

/**
 * The workspace identity of a `ready` frame, checked the same way on every hop (the broker reading
 * agentctl's frame, the web reading the broker's, the backend reading agentctl's health answer,
 * which carries the same identity: workspaceIdentityOf). One rule: a frame whose workspaceUri or
 * workspacePath is not a string, or whose repoSubpaths is not an array of strings, is refused
 * whole with an error naming the field; nothing is dropped or guessed, since a workspace folder
 * list with an entry silently missing would make the server index the wrong roots.
 */
export function readyFrameIdentity(frame: unknown): WorkspaceIdentityResult {
  return workspaceIdentityOf(frame, 'ready frame');
}

/** The same check on any message carrying a workspace identity; `source` names it in the error. */
export function workspaceIdentityOf(value: unknown, source: string): WorkspaceIdentityResult {
  if (!isRecord(value)) return { ok: false, error: `${source} is not an object` };
  const { workspaceUri, workspacePath, repoSubpaths } = value;
  if (typeof workspaceUri !== 'string') return { ok: false, error: `${source}: workspaceUri must be a string` };
  if (typeof workspacePath !== 'string') return { ok: false, error: `${source}: workspacePath must be a string` };
  if (!Array.isArray(repoSubpaths) || !repoSubpaths.every((p): p is string => typeof p === 'string')) {
    return { ok: false, error: `${source}: repoSubpaths must be an array of strings` };
  }
  return { ok: true, identity: { workspaceUri, workspacePath, repoSubpaths: [...repoSubpaths] } };
}
