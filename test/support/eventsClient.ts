import type { WorkspaceEventFrame } from '@kandev/protocol';
import WebSocket from 'ws';
import { authHeaders } from './access.js';

/**
 * A page's live-workspace stream as the web client opens it: `/api/sessions/:id/events` with the
 * access token and the page's own Origin. Records every frame; `outcome` says whether the upgrade
 * was refused (its HTTP status) or how the socket closed.
 */
export class EventsClient {
  readonly ws: WebSocket;
  readonly frames: WorkspaceEventFrame[] = [];
  readonly opened: Promise<{ status?: number }>;
  readonly closed: Promise<number>;
  private waiters: { match: (f: WorkspaceEventFrame) => boolean; resolve: (f: WorkspaceEventFrame) => void }[] = [];

  constructor(url: string, sessionId: string, options: { headers?: Record<string, string>; origin?: string } = {}) {
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/sessions/${encodeURIComponent(sessionId)}/events`, {
      headers: { Origin: options.origin ?? url, ...(options.headers ?? authHeaders()) },
    });
    this.opened = new Promise((resolve) => {
      this.ws.once('open', () => resolve({}));
      this.ws.once('unexpected-response', (_req, res) => {
        res.resume();
        resolve({ status: res.statusCode });
      });
    });
    this.ws.on('error', () => undefined);
    this.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as WorkspaceEventFrame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true));
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
  }

  waitFor<T extends WorkspaceEventFrame>(match: (f: WorkspaceEventFrame) => boolean): Promise<T> {
    const seen = this.frames.find(match);
    return (seen ? Promise.resolve(seen) : new Promise<WorkspaceEventFrame>((resolve) => this.waiters.push({ match, resolve }))) as Promise<T>;
  }

  send(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  close(): void {
    this.ws.close(1000);
  }
}
