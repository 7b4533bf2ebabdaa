import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  editorText,
  hoverRows,
  lspStatus,
  markers,
  openFile,
  openSession,
  placeCaret,
  runEditorAction,
  startEditorStack,
  waitForLspState,
} from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

/**
 * Monaco's TypeScript built-ins next to the real typescript-language-server, two sessions in one
 * window: session A runs its server, session B was auto-started and then explicitly stopped.
 *
 * The demo's main.ts imports createGreeter from ./greeter. Neither session opens greeter.ts, so
 * Monaco's built-in worker cannot resolve it ("import createGreeter", "Cannot find module"), while
 * the real server reads the project from disk ("createGreeter(prefix: string): Greeter"): each
 * answer names the intelligence that produced it.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const utilJs = '/** Doubles a number. */\nexport function double(n) {\n  return n * 2;\n}\ndouble(2);\n';

describe.runIf(run)('S14/S15 built-in suppression with real typescript-language-server and two sessions', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let a: string;
  let b: string;
  /** LSP WebSockets the page opened, by session id. */
  const sockets: Record<string, number> = {};

  const stop = () => page.locator('[data-testid="lsp-status"][data-language="typescript"] [data-testid="lsp-stop"]');
  const start = () => page.locator('[data-testid="lsp-status"][data-language="typescript"] [data-testid="lsp-start"]');

  /** Shows the hover at `text` (+offset) until its rows match `expected`; returns the rows. */
  async function hover(text: string, offset: number, expected: string | RegExp): Promise<string[]> {
    await placeCaret(page, text, offset);
    const rows = page.locator('.monaco-hover:not(.hidden) .hover-row:has(.markdown-hover)');
    let seen: string[] = [];
    await expect
      .poll(
        async () => {
          // Hide first: Monaco does not ask again while a hover for the same place is showing.
          await page.keyboard.press('Escape');
          await runEditorAction(page, 'editor.action.showHover');
          await rows
            .first()
            .waitFor({ timeout: 5_000 })
            .catch(() => undefined);
          seen = await hoverRows(page);
          return seen.join('\n');
        },
        { timeout: 60_000, interval: 500 },
      )
      .toMatch(expected);
    await page.keyboard.press('Escape');
    return seen;
  }

  beforeAll(async () => {
    stack = await startEditorStack();
    const ids: string[] = [];
    for (const title of ['A', 'B']) {
      const workspace = copyDemoWorkspace();
      writeFileSync(join(workspace, 'src/util.js'), utilJs);
      const task = await stack.createTask({ title, workspace });
      ids.push((await stack.startSession(task.id)).id);
    }
    [a, b] = ids as [string, string];
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    page.on('websocket', (ws) => {
      const m = /\/lsp\/([^/?]+)/.exec(ws.url());
      if (m) sockets[decodeURIComponent(m[1] as string)] = (sockets[decodeURIComponent(m[1] as string)] ?? 0) + 1;
    });

    // B: started by global auto-start (typescript is on by default), then stopped by the user.
    await openSession(page, stack.url, b);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await stop().click();
    await waitForLspState(page, 'typescript', 'off');

    // A: running.
    await openSession(page, stack.url, a);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('S15 server diagnostics replace the built-in ones on the owned model only', async () => {
    await openSession(page, stack.url, a);
    await openFile(page, 'src/main.ts');
    await expect
      .poll(async () => (await markers(page, a, 'src/main.ts')).map((m) => m.message).join('\n'), { timeout: 60_000 })
      .toMatch(/Type 'string' is not assignable to type 'number'/);
    const owned = await markers(page, a, 'src/main.ts');
    expect(owned.every((m) => m.owner.startsWith('kandev-lsp.typescript.'))).toBe(true);
    expect(owned.map((m) => m.message).join('\n')).not.toContain("Cannot find module './greeter'");

    // B's server is stopped: its model keeps Monaco's built-in diagnostics.
    const other = await markers(page, b, 'src/main.ts');
    expect(other.map((m) => m.owner)).toContain('typescript');
    expect(other.map((m) => m.message).join('\n')).toContain("Cannot find module './greeter'");
  });

  it('S15 the session with a running server shows one hover, from the server: the built-in is suppressed on its model', async () => {
    await openSession(page, stack.url, a);
    await openFile(page, 'src/main.ts');
    const rows = await hover('createGreeter(', 2, /createGreeter\(prefix: string\): Greeter/);
    // The built-in alone would say just "import createGreeter" (it cannot see greeter.ts); both
    // answering would make two rows.
    expect(rows).toHaveLength(1);
  });

  it('S15 unwired built-in features (rename) keep working on the owned model', async () => {
    await openSession(page, stack.url, a);
    await openFile(page, 'src/main.ts');
    await placeCaret(page, 'count: number', 1);
    await runEditorAction(page, 'editor.action.rename');
    const input = page.locator('.rename-box input');
    await input.waitFor({ timeout: 30_000 });
    await input.fill('total');
    await input.press('Enter');
    await expect.poll(() => editorText(page), { timeout: 30_000 }).toContain('console.log(total);');
    expect(await editorText(page)).toContain('const total: number');
    await page.keyboard.press('Control+Z');
    await expect.poll(() => editorText(page)).toContain('console.log(count);');
  });

  it('S14 JavaScript built-ins registering lazily after the server is ready are wrapped too; the LSP provider stays active', async () => {
    // The first javascript model of this window makes Monaco register its JavaScript providers now,
    // after the connection claimed its features.
    await openSession(page, stack.url, a);
    await openFile(page, 'src/util.js');
    const rows = await hover('double(2)', 2, /double\(n: any\): number/);
    expect(rows).toHaveLength(1);
  });

  it('S15 the session whose server is stopped keeps Monaco built-in hover on its models', async () => {
    await openSession(page, stack.url, b);
    await openFile(page, 'src/main.ts');
    await expect(lspStatus(page, 'typescript').getAttribute('data-state')).resolves.toBe('off');
    const rows = await hover('createGreeter(', 2, /import createGreeter/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).not.toContain('(prefix: string)');
    await openFile(page, 'src/util.js');
    expect(await hover('double(2)', 2, /double\(n: any\): number/)).toHaveLength(1);
  });

  it('S02 an explicit Stop stays Off across an editor remount and a settings change, until Start', async () => {
    const before = sockets[b] ?? 0;
    expect(before).toBe(1); // the auto-started connection, stopped in beforeAll

    // Remount: close every tab of B, then open the file again.
    await openSession(page, stack.url, b);
    for (const path of ['src/util.js', 'src/main.ts']) {
      await page.locator(`[data-testid="editor-tab"][data-path="${path}"] .tab-close`).click();
    }
    await page.locator('[data-testid="editor"]').waitFor({ state: 'detached' });
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'off');

    // A configuration change in Settings (this window), then back to the session: a new mount.
    await page.locator('[data-testid="settings-link"]').click();
    const card = page.locator('[data-testid="language-card"][data-language="typescript"]');
    await card.locator('[data-testid="lsp-config-input"]').fill('{"typescript": {"format": {"semicolons": "insert"}}}');
    await card.locator('[data-testid="lsp-config-save"]').click();
    await card.locator('[data-testid="lsp-config-saved"]').waitFor();
    await openSession(page, stack.url, b);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'off');
    // Still Off after the mount's effects ran: A's connection proves the window is live ...
    await openSession(page, stack.url, a);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await openSession(page, stack.url, b);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'off');
    // ... and no LSP WebSocket was opened for B since the Stop.
    expect(sockets[b]).toBe(before);

    await start().click();
    await waitForLspState(page, 'typescript', 'ready');
    expect(sockets[b]).toBe(before + 1);
  });
});
