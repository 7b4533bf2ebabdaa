import { TASK_HOST_PATHS, WS_WRITE_DEADLINE_MS } from '@kandev/protocol';
import { DEFAULT_KEEPALIVE, FrameSocket, type KeepaliveTiming } from '@kandev/node-transport';
import { WebSocket } from 'ws';
import { fail, messageOf, ok, type Result } from '../base/result.js';
import type { TaskHostEndpoint } from '../taskhost/endpoint.js';
import type { EventsSocket, OpenEventsUpstream } from './sessionEvents.js';

const HANDSHAKE_TIMEOUT_MS = 10_000;
/** agentctl's frames are paths and git state; a `git` frame of 5,000 files stays well below this. */
const MAX_UPSTREAM_FRAME_BYTES = 4 * 1024 * 1024;

export interface EventsUpstreamOptions {
  /** The running task host of a session, or undefined: a page listening never starts one. */
  liveEndpoint: (sessionId: string) => TaskHostEndpoint | undefined;
  keepalive?: KeepaliveTiming;
}

/** Opens agentctl's events stream for a session with the session's bearer token. */
export function eventsUpstreamOpener(options: EventsUpstreamOptions): OpenEventsUpstream {
  return async (sessionId) => {
    const endpoint = options.liveEndpoint(sessionId);
    if (!endpoint) return fail('the session has no running task host');
    return openEventsUpstream(endpoint, options.keepalive ?? DEFAULT_KEEPALIVE);
  };
}

async function openEventsUpstream(endpoint: TaskHostEndpoint, keepalive: KeepaliveTiming): Promise<Result<EventsSocket, string>> {
  const ws = new WebSocket(new URL(TASK_HOST_PATHS.workspaceEvents, endpoint.baseUrl.replace(/^http/, 'ws')), {
    headers: { authorization: `Bearer ${endpoint.token}` },
    maxPayload: MAX_UPSTREAM_FRAME_BYTES,
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    perMessageDeflate: false,
    followRedirects: false,
    // As on the LSP upstream: straight to the session's own agentctl, so no masking work.
    generateMask: (mask: Buffer) => {
      mask.fill(0);
    },
  });
  const socket = new FrameSocket(ws, { writeDeadlineMs: WS_WRITE_DEADLINE_MS, keepalive });
  const opened = await new Promise<Result<void, string>>((resolve) => {
    ws.once('open', () => resolve(ok(undefined)));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      ws.terminate();
      resolve(fail(`agentctl refused the events stream with HTTP ${res.statusCode ?? '?'}`));
    });
    ws.once('error', (err) => resolve(fail(`agentctl events stream failed: ${messageOf(err)}`)));
  });
  return opened.ok ? ok(socket) : opened;
}
