/**
 * Helpers for the lease browser suites (lease-*.test.ts): a proxy on the page's /lsp sockets that
 * records what the backend sent and can cut the connection like a network failure would, a look
 * at /proc, metrics, and the fake server script the suites share.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { authHeaders } from '../support/access.js';
import { markers } from '../support/page.js';

const RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } };

/** Diagnostics that say which document state the server analysed: opened contents or an edit. */
export const FRESH = 'fresh analysis of the opened file';
export const UNSAVED = 'error in the unsaved buffer';
export const HOVER = 'hover from the fake kotlin-lsp';

export const leaseScript: FakeScript = {
  capabilities: { hoverProvider: true, textDocumentSync: 1 },
  rules: {
    'textDocument/didOpen': [
      { notify: 'textDocument/publishDiagnostics', params: { uri: '$uri', version: '$version', diagnostics: [{ range: RANGE, severity: 2, message: FRESH }] } },
    ],
    'textDocument/didChange': [
      {
        notify: 'textDocument/publishDiagnostics',
        params: { uri: '$uri', version: '$version', diagnostics: [{ range: RANGE, severity: 1, message: UNSAVED }] },
      },
    ],
    'textDocument/hover': [{ respond: { contents: { kind: 'markdown', value: HOVER } } }],
    // A pull-model server: told that settings changed, it asks for them.
    'workspace/didChangeConfiguration': [{ request: 'workspace/configuration', params: { items: [{ section: 'kotlin' }] } }],
  },
};

export const MAIN_KT = 'fun main() {\n    val greeting = "hello"\n    println(greeting)\n}\n';

export interface LspProxy {
  /** URLs of the /lsp sockets the page opened, in order. */
  opened: string[];
  /** Every frame the backend sent to the page, parsed. */
  received: Array<Record<string, any>>;
  /**
   * A network cut of the current socket: the backend sees its browser go away, then the page sees
   * an abnormal close (no close frame from the backend).
   */
  cut(settle?: () => Promise<void>): Promise<void>;
}

/** Routes the page's /lsp sockets to the backend unchanged, recording them. Call before navigating. */
export async function proxyLspSockets(page: Page): Promise<LspProxy> {
  type Side = { close(o?: { code?: number; reason?: string }): Promise<void> };
  let current: { page: Side; server: Side } | undefined;
  /** While a cut settles, the page's next socket waits before it reaches the backend. */
  let gate: Promise<void> | undefined;
  const proxy: LspProxy = {
    opened: [],
    received: [],
    async cut(settle) {
      const link = current;
      if (!link) throw new Error('no /lsp socket to cut');
      current = undefined;
      // The backend loses its browser; the page sees a transport failure and reconnects. A real
      // cut gives no ordering between the two; the gate makes the backend notice first, so the
      // reconnect finds a detached lease to resume (what the heartbeat-free backend relies on).
      gate = (async () => {
        await link.server.close({ code: 1001 });
        await settle?.();
      })();
      await link.page.close({ code: 4009 });
      await gate;
    },
  };
  await page.routeWebSocket(/\/lsp\//, async (ws) => {
    proxy.opened.push(ws.url());
    if (gate) await gate;
    const server = ws.connectToServer();
    current = { page: ws, server };
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      try {
        proxy.received.push(JSON.parse(String(message)) as Record<string, any>);
      } catch {
        // not ours to judge here
      }
      ws.send(message);
    });
    server.onClose((code, reason) => void ws.close({ code, reason }));
    ws.onClose((code, reason) => void server.close({ code, reason }));
  });
  return proxy;
}

export function markerMessages(page: Page, sessionId: string, path: string): () => Promise<string> {
  return async () => (await markers(page, sessionId, path)).map((m) => m.message).join('\n');
}

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** One sample of the backend's /metrics (0 when absent). */
export async function metric(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: authHeaders() })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Copies a tab's sessionStorage into a page that has not loaded yet: a duplicated tab. */
export async function duplicateSessionStorage(from: Page, to: Page): Promise<Record<string, string>> {
  const storage = await from.evaluate(() => Object.fromEntries(Object.entries(sessionStorage)));
  await to.addInitScript((entries: Record<string, string>) => {
    for (const [key, value] of Object.entries(entries)) sessionStorage.setItem(key, value);
  }, storage);
  return storage;
}
