import * as z from 'zod/mini';
import { isRecord } from './records.js';

const REPO_SUBPATHS = 'repoSubpaths must be an array of strings';

/**
 * Where the server runs: the workspace as a URI and as a task-host path, and the repositories'
 * folders within it. Carried by agentctl's and the broker's `ready` frames and agentctl's health answer.
 */
export const workspaceIdentitySchema = z.object({
  workspaceUri: z.string({ error: 'workspaceUri must be a string' }),
  workspacePath: z.string({ error: 'workspacePath must be a string' }),
  repoSubpaths: z.array(z.string({ error: REPO_SUBPATHS }), { error: REPO_SUBPATHS }),
});
export type WorkspaceIdentity = z.infer<typeof workspaceIdentitySchema>;

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
  const parsed = workspaceIdentitySchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: `${source}: ${parsed.error.issues[0]?.message ?? 'not a workspace identity'}` };
  // Only the identity's members, in a copy of their own (the frame carries more).
  const { workspaceUri, workspacePath, repoSubpaths } = parsed.data;
  return { ok: true, identity: { workspaceUri, workspacePath, repoSubpaths: [...repoSubpaths] } };
}
