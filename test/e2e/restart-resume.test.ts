/**
 * A backend restart seen from Chromium (real typescript-language-server, Local PC): the backend
 * is SIGKILLed under an open editor, which says "Reconnecting"; the backend is started again on
 * the same KANDEV_HOME and port, and the same page (never reloaded) reconnects by itself with its
 * lease hint, resumes its lease on the very same server process without sending `initialize`
 * again, and answers hover.
 */
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openSession, placeCaret, recordLspStates, lspStatesSeen, runEditorAction, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';
import { childPids, isAlive, serverChildren } from '../integration/backend-support.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
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

const sentMethods = (page: Page): Promise<string[]> =>
  page.evaluate(() => ((window as any).__lspSent as string[]).map((t) => JSON.parse(t).method ?? JSON.parse(t).control ?? 'response'));

describe.runIf(run)('C05 across a backend restart: a backend restart under an open TypeScript editor', () => {
  const home = mkdtempSync(join(tmpdir(), 'kandev-restart-e2e-'));
  const stacks: RunningStack[] = [];
  let browser: LaunchedBrowser | undefined;

  afterAll(async () => {
    await browser?.close();
    for (const stack of stacks) await stack.stop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  });

  it('C05 the editor says Reconnecting while the backend is down, then comes back Ready on the same server without a reload or a second initialize, and answers hover', async () => {
    ensureBuilt('web-test');
    const env = { KANDEV_HOME: home, KANDEV_PORT: String(await freePort()), KANDEV_RESTART_GRACE_MS: '90000', KANDEV_LOG_STDERR: '0' };
    const first = await startStack(env);
    stacks.push(first);
    const task = await first.createTask({ title: 'Demo', workspace: copyDemoWorkspace() });
    const sessionId = (await first.startSession(task.id)).id;
    const [agentctl] = childPids(first.process.pid as number, 'agentctl');
    browser = await launchChromium();
    const page = await (await newContext(browser.browser)).newPage();
    await recordLspStates(page);
    await recordLspSends(page);
    await openSession(page, first.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    const servers = serverChildren(agentctl as number);
    expect(servers.length).toBeGreaterThan(0);
    const before = await sentMethods(page);
    expect(before.filter((m) => m === 'initialize')).toHaveLength(1);

    const died = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await died;
    // The gap: the status says so, honestly.
    await waitForLspState(page, 'typescript', 'reconnecting');

    const second = await startStack(env);
    stacks.push(second);
    await waitForLspState(page, 'typescript', 'ready', 120_000);
    expect(await page.evaluate(() => (window as any).__pageLoads)).toBe(1);
    const after = (await sentMethods(page)).slice(before.length);
    // Resumed: the page reopened its document and said attachment-ready; it never initialized again.
    expect(after).toContain('attachment-ready');
    expect(after).toContain('textDocument/didOpen');
    expect(after).not.toContain('initialize');
    expect(servers.filter(isAlive)).toEqual(servers);
    expect(serverChildren(agentctl as number)).toEqual(servers);

    // The resumed server answers hover (Monaco's own TypeScript stays off for what the server owns).
    await placeCaret(page, 'log(count)', 5);
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(() => page.locator('.monaco-hover').innerText(), { timeout: 30_000 }).toContain('const count: number');
    const states = await lspStatesSeen(page);
    expect(states.slice(states.lastIndexOf('typescript:reconnecting'))).toContain('typescript:ready');
  });
});
