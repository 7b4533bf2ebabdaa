/**
 * A backend restart seen from Chromium (real servers, Local PC): the backend is SIGKILLed with an
 * editor page holding two attached leases (typescript-language-server on src/main.ts, pyright on
 * app/main.py) and a third lease detached (a second window on src/main.ts, closed), while pages in
 * the other locales watch gopls. During the gap every page says "Reconnecting" in its own locale and
 * nothing else; the backend is started again on the same KANDEV_HOME and port, and the same pages
 * (never reloaded) reconnect by themselves with their lease hints, resume their leases on the very
 * same server processes without sending `initialize` again, and the editor answers hover.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  lspStatesSeen,
  lspStatus,
  openFile,
  openSession,
  openSessionInLocale,
  placeCaret,
  recordLspStates,
  runEditorAction,
  waitForLspState,
} from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';
import { freePort } from '../support/ports.js';
import { childPids, isAlive, serverChildren } from '../integration/backend-support.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const LOCALES = ['en', 'pt-pt', 'zh-cn', 'pseudo'] as const;

/** The catalog's "connection lost, reconnecting (attempt n of m)" copy of a locale, as a pattern. */
function reconnectingCopy(locale: string): RegExp {
  const catalog = JSON.parse(readFileSync(join(repoRoot, 'apps/web/src/locales', locale, 'lsp.json'), 'utf8')) as { message: { reconnecting: string } };
  const escaped = catalog.message.reconnecting.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace('\\{\\{attempt\\}\\}', '\\d+').replace('\\{\\{max\\}\\}', '\\d+')}$`);
}

/** Every text frame the page sends on an /lsp socket, recorded in the page (it survives reconnects, not reloads). */
async function recordLspSends(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const sent: string[] = [];
    (window as any).__lspSent = sent;
    (window as any).__pageLoads = ((window as any).__pageLoads ?? 0) + 1;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data: any) {
      if (this.url.includes('/lsp/') && typeof data === 'string') sent.push(data);
      return send.call(this, data);
    };
  });
}

interface Sent {
  method: string;
  uri?: string;
}

const sentFrames = (page: Page): Promise<Sent[]> =>
  page.evaluate(() =>
    ((window as any).__lspSent as string[]).map((t) => {
      const frame = JSON.parse(t);
      return { method: frame.method ?? frame.control ?? 'response', uri: frame.params?.textDocument?.uri };
    }),
  );

describe.runIf(run)('C05 across a backend restart: a backend restart under open editors', () => {
  const home = mkdtempSync(join(tmpdir(), 'kandev-restart-e2e-'));
  const stacks: RunningStack[] = [];
  const contexts: BrowserContext[] = [];
  let browser: LaunchedBrowser | undefined;

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    for (const stack of stacks) await stack.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  });

  async function page(): Promise<Page> {
    const context = await newContext((browser as LaunchedBrowser).browser);
    contexts.push(context);
    const opened = await context.newPage();
    await recordLspStates(opened);
    await recordLspSends(opened);
    return opened;
  }

  it('C05 every page says Reconnecting in its locale while the backend is down, then comes back Ready on the same servers without a reload or a second initialize, and answers hover', async () => {
    ensureBuilt('web-test');
    const env = { KANDEV_HOME: home, KANDEV_PORT: String(await freePort()), KANDEV_RESTART_GRACE_MS: '120000', KANDEV_LOG_STDERR: '0' };
    const first = await startStack(env);
    stacks.push(first);
    const task = await first.createTask({ title: 'Demo', workspace: copyDemoWorkspace() });
    const sessionId = (await first.startSession(task.id)).id;
    const [agentctl] = childPids(first.process.pid as number, 'agentctl');
    browser = await launchChromium();

    // Two attached leases in the editor page: pyright first, then TypeScript as the active editor.
    const editor = await page();
    await openSession(editor, first.url, sessionId);
    await openFile(editor, 'app/main.py');
    await waitForLspState(editor, 'python', 'ready');
    await openFile(editor, 'src/main.ts');
    await waitForLspState(editor, 'typescript', 'ready');
    // The third lease, detached: another window on the same file, closed (its lease keeps its server).
    const closed = await page();
    await openSession(closed, first.url, sessionId);
    await openFile(closed, 'src/main.ts');
    await waitForLspState(closed, 'typescript', 'ready');
    await closed.context().close();
    // The other locales watch the gap from pages of their own (gopls, the lightest real server).
    const watchers = new Map<string, Page>();
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const watcher = await page();
      await openSessionInLocale(watcher, first.url, sessionId, locale);
      await openFile(watcher, 'main.go');
      await waitForLspState(watcher, 'go', 'ready');
      watchers.set(locale, watcher);
    }
    const servers = serverChildren(agentctl as number);
    expect(servers).toHaveLength(6);
    const editorSentBefore = (await sentFrames(editor)).length;
    expect((await sentFrames(editor)).filter((f) => f.method === 'initialize')).toHaveLength(2);
    const statesBefore = new Map<Page, number>();
    for (const p of [editor, ...watchers.values()]) statesBefore.set(p, (await lspStatesSeen(p)).length);

    const died = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await died;
    // The gap: each page says so, in its own words, and says nothing else.
    await waitForLspState(editor, 'typescript', 'reconnecting');
    expect(await lspStatus(editor, 'typescript').getByTestId('lsp-message').innerText()).toMatch(reconnectingCopy('en'));
    for (const [locale, watcher] of watchers) {
      await waitForLspState(watcher, 'go', 'reconnecting');
      expect(await lspStatus(watcher, 'go').getByTestId('lsp-message').innerText()).toMatch(reconnectingCopy(locale));
    }
    for (const [p, before] of statesBefore) {
      const gap = new Set((await lspStatesSeen(p)).slice(before).map((s) => s.split(':')[1]));
      expect([...gap]).toEqual(['reconnecting']);
    }

    const second = await startStack(env);
    stacks.push(second);
    await waitForLspState(editor, 'typescript', 'ready', 150_000);
    for (const watcher of watchers.values()) await waitForLspState(watcher, 'go', 'ready', 150_000);
    for (const p of [editor, ...watchers.values()]) expect(await p.evaluate(() => (window as any).__pageLoads)).toBe(1);
    // Resumed: each page reopened its documents and said attachment-ready; none initialized again.
    // The editor's pyright lease (its file not the active one, so no status to wait on) reconnects
    // on its own schedule: its attachment-ready can follow TypeScript's Ready.
    const attachmentReadies = async () => (await sentFrames(editor)).slice(editorSentBefore).filter((f) => f.method === 'attachment-ready').length;
    await expect.poll(attachmentReadies, { timeout: 150_000 }).toBeGreaterThanOrEqual(2);
    const after = (await sentFrames(editor)).slice(editorSentBefore);
    expect(after.filter((f) => f.method === 'attachment-ready')).toHaveLength(2);
    expect(new Set(after.filter((f) => f.method === 'textDocument/didOpen').map((f) => f.uri?.split('/').slice(-2).join('/')))).toEqual(
      new Set(['app/main.py', 'src/main.ts']),
    );
    expect(after.map((f) => f.method)).not.toContain('initialize');
    for (const watcher of watchers.values()) expect((await sentFrames(watcher)).filter((f) => f.method === 'initialize')).toHaveLength(1);
    // The same six server processes: nothing was started again, the detached lease's included.
    expect(servers.filter(isAlive)).toEqual(servers);
    expect(serverChildren(agentctl as number)).toEqual(servers);

    // The resumed server answers hover (Monaco's own TypeScript stays off for what the server owns).
    await placeCaret(editor, 'log(count)', 5);
    await runEditorAction(editor, 'editor.action.showHover');
    await expect.poll(() => editor.locator('.monaco-hover').innerText(), { timeout: 30_000 }).toContain('const count: number');
    const states = await lspStatesSeen(editor);
    expect(states.slice(states.lastIndexOf('typescript:reconnecting'))).toContain('typescript:ready');
  }, 480_000);
});
