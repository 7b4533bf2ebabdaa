import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Task } from '@kandev/protocol';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  lspStatesSeen,
  markers,
  openFile,
  openSession,
  recordLspStates,
  setCaret,
  startEditorStack,
  waitForLspState,
  witnessLspSockets,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';
import { hostileWorkspace } from '../integration/trust-support.js';

/**
 * Workspace trust in the session view (docs/workspace-trust.md): a repository that ships its own
 * node_modules/typescript (whose tsserver.js records that it ran). Untrusted, the editor gets real
 * diagnostics from the task host's TypeScript; the shield in the session header explains what
 * trusting means per language, the switch records it, and after the offered reload the new
 * server runs the workspace's TypeScript.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const realTsserver = realpathSync(join(repoRoot, 'node_modules/typescript/lib/tsserver.js'));

describe.runIf(run)('workspace trust switch in Chromium', () => {
  const ws = hostileWorkspace('e2e', {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }),
    'a.ts': 'export const n: number = "not a number";\n',
    'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '6.0.0', main: './lib/typescript.js' }),
    'node_modules/typescript/lib/typescript.js': 'module.exports = {};\n',
    'node_modules/typescript/lib/tsserver.js': `require('node:fs').appendFileSync('@MARKER@', 'workspace tsserver\\n');\nrequire(${JSON.stringify(realTsserver)});\n`,
  });
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let task: Task;
  let sessionId: string;
  let sockets: Awaited<ReturnType<typeof witnessLspSockets>>;

  const typeErrorShown = () =>
    expect
      .poll(async () => (await markers(page, sessionId, 'a.ts')).map((m) => m.message).join('\n'), { timeout: 60_000 })
      .toMatch(/not assignable to type 'number'/);

  beforeAll(async () => {
    ensureBuilt('web-test');
    stack = await startEditorStack();
    task = await stack.createTask({ title: 'Hostile TypeScript', workspace: ws.dir });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    await recordLspStates(page);
    sockets = await witnessLspSockets(page);
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'a.ts');
    await waitForLspState(page, 'typescript', 'ready');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('untrusted by default: real diagnostics, and the workspace TypeScript has not run', async () => {
    await typeErrorShown();
    expect(ws.runs()).toEqual([]);
    await expect.poll(() => page.locator('[data-testid="workspace-trust-button"]').getAttribute('data-trusted')).toBe('false');
  });

  it('the shield explains what trusting means per language; flipping the switch records it for the task', async () => {
    await page.locator('[data-testid="workspace-trust-button"]').click();
    const dialog = page.locator('[data-testid="workspace-trust-dialog"]');
    await dialog.waitFor();
    const text = await dialog.innerText();
    expect(text).toContain("run the repository's own TypeScript (node_modules/typescript)");
    expect(text).toContain('build scripts (build.rs)');
    expect(text).toContain('applies to language servers started after it');
    expect(await page.locator('[data-testid="workspace-trust-state"]').innerText()).toContain('Not trusted');

    await page.locator('[data-testid="workspace-trust-switch"]').click();
    await page.locator('[data-testid="workspace-trust-button"][data-trusted="true"]').waitFor();
    expect(await page.locator('[data-testid="workspace-trust-state"]').innerText()).toContain('Trusted');
    expect((await stack.api<Task>(`/api/tasks/${task.id}`)).trustWorkspaceTools).toBe(true);
  });

  it('nothing restarts by itself: after the switch, the running server (the same socket, never the workspace TypeScript) answers an edit', async () => {
    const statesBefore = (await lspStatesSeen(page)).length;
    const socketsBefore = sockets.opened.length;
    // A round trip through the server after the switch: a new error in a new line. Whatever
    // answers it is the server that runs now, so a restart by the switch could not hide here.
    await page.keyboard.press('Escape');
    await setCaret(page, 2, 1);
    await page.keyboard.type('export const s: string = 1;\n');
    await expect
      .poll(async () => (await markers(page, sessionId, 'a.ts')).map((m) => m.message).join('\n'), { timeout: 60_000 })
      .toMatch(/Type 'number' is not assignable to type 'string'/);
    expect(ws.runs()).toEqual([]);
    expect(sockets.opened.length).toBe(socketsBefore);
    expect(sockets.closes).toEqual([]);
    expect((await lspStatesSeen(page)).slice(statesBefore)).toEqual([]);
    expect(await page.locator('[data-testid="lsp-status"][data-language="typescript"]').first().getAttribute('data-state')).toBe('ready');
    // Back to the text on disk, so the reload below leaves nothing unsaved behind.
    const clean = page.locator('[data-testid="editor-tab"][data-path="a.ts"][data-dirty="false"]');
    for (let i = 0; i < 20 && (await clean.count()) === 0; i++) await page.keyboard.press('Control+Z');
    await clean.waitFor();
    // The dialog again, which still offers the reload that applies the switch.
    await page.locator('[data-testid="workspace-trust-button"]').click();
    await page.locator('[data-testid="workspace-trust-restart"]').waitFor();
  });

  it('the offered reload restarts the server, which now runs the workspace TypeScript', async () => {
    // Listening before the click: a fast reload can finish before a later listener exists.
    const reloaded = page.waitForEvent('load');
    await page.locator('[data-testid="workspace-trust-restart"]').click();
    await reloaded;
    await page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
    await openFile(page, 'a.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await typeErrorShown();
    expect(ws.runs().length).toBeGreaterThan(0);
  });
});
