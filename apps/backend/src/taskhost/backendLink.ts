import { DEFAULT_KEEPALIVE, FrameSocket, type KeepaliveTiming } from '@kandev/node-transport';
import { TASK_HOST_RESTART_PATHS, WS_WRITE_DEADLINE_MS } from '@kandev/protocol';
import { WebSocket } from 'ws';
import { fail, messageOf, ok, type Result } from '../base/result.js';
import type { TaskHostEndpoint } from './endpoint.js';

const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * This backend's link to a task host it re-adopted (docs/restarts.md). While the link is open the
 * task host knows it is owned; when it closes (this backend died or restarts) the task host's grace
 * period starts. It also tells this backend when the task host is gone: the link closes with it.
 */
export class BackendLink {
  private constructor(
    private readonly socket: FrameSocket,
    /** Settles when the link is gone (the task host ended, hung, or the link was dropped). */
    readonly closed: Promise<void>,
  ) {}

  static async open(endpoint: TaskHostEndpoint, keepalive: KeepaliveTiming = DEFAULT_KEEPALIVE): Promise<Result<BackendLink, string>> {
    const ws = new WebSocket(new URL(TASK_HOST_RESTART_PATHS.link, endpoint.baseUrl.replace(/^http/, 'ws')), {
      headers: { authorization: `Bearer ${endpoint.token}` },
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      perMessageDeflate: false,
      followRedirects: false,
    });
    const socket = new FrameSocket(ws, { writeDeadlineMs: WS_WRITE_DEADLINE_MS, keepalive });
    const closed = new Promise<void>((resolve) => socket.onClose(() => resolve()));
    const opened = await new Promise<Result<void, string>>((resolve) => {
      ws.once('open', () => resolve(ok(undefined)));
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        ws.terminate();
        resolve(fail(`agentctl refused the link with HTTP ${res.statusCode ?? '?'}`));
      });
      ws.once('error', (err) => resolve(fail(`agentctl link failed: ${messageOf(err)}`)));
    });
    if (!opened.ok) return opened;
    return ok(new BackendLink(socket, closed));
  }

  /** Drops the link without a close handshake (the task host then waits its grace for a backend). */
  drop(): void {
    this.socket.terminate();
  }
}
