import type { TaskHost } from '../executors/executor.js';
import { fail } from '../base/result.js';
import type { UpstreamOpener } from './relay.js';
import { UpstreamStream, type UpstreamOptions } from './upstreamStream.js';

export interface TaskHostSource {
  /** The session's task host once it runs (waiting for a start in flight), or undefined. */
  hostFor(sessionId: string): Promise<TaskHost | undefined>;
}

/**
 * The production opener of a lease's upstream: the session's agentctl `/api/v1/lsp/stream` with
 * the session's bearer token and `autoInstall` from the owner's settings (the broker put it in the
 * effect; the browser never chooses it). No running task host, or no answer: an error, i.e. 4002.
 */
export function taskHostStreamOpener(
  sessions: TaskHostSource,
  extra: Pick<UpstreamOptions, 'writeDeadlineMs' | 'keepalive' | 'onDead' | 'onRelayed'> = {},
): UpstreamOpener {
  return async ({ sessionId, language, autoInstall, trustWorkspaceTools, resumeStream }) => {
    const host = await sessions.hostFor(sessionId);
    if (!host) return fail('the session has no running task host');
    const options: UpstreamOptions = { ...extra, language, autoInstall, trustWorkspaceTools, ...(resumeStream !== undefined ? { resumeStream } : {}) };
    return UpstreamStream.open(host.endpoint, options);
  };
}
