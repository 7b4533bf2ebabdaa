import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { markers, openFile, openSession, placeCaret, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';
import { ensureBuilt } from '../support/build.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('the demo task in Chromium with real typescript-language-server', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;

  beforeAll(async () => {
    ensureBuilt('web-test');
    stack = await startStack();
    const task = await stack.createTask({ title: 'Demo', workspace: copyDemoWorkspace() });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows the type error from the server as a marker', async () => {
    await expect
      .poll(async () => (await markers(page, sessionId, 'src/main.ts')).map((m) => m.message).join('\n'), { timeout: 60_000 })
      .toMatch(/Type 'string' is not assignable to type 'number'/);
    await page.locator('.squiggly-error').first().waitFor();
  });

  it('shows hover text for a symbol from another file', async () => {
    await placeCaret(page, 'createGreeter(', 2);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await expect.poll(() => page.locator('.monaco-hover').innerText(), { timeout: 30_000 }).toContain('createGreeter(prefix: string): Greeter');
  });

  it('lists the members of an interface declared in another file in completion', async () => {
    await placeCaret(page, 'console.log(count);', 'console.log(count);'.length);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('greeter.');
    const suggest = page.locator('.suggest-widget .monaco-list-row');
    await expect.poll(async () => (await suggest.allInnerTexts()).join('\n'), { timeout: 30_000 }).toContain('farewell');
    await page.keyboard.press('Escape');
  });

  it('F12 on a call opens the file that defines it', async () => {
    await placeCaret(page, 'createGreeter(', 3);
    await page.keyboard.press('F12');
    await page.locator('[data-testid="editor-tab"][data-path="src/greeter.ts"][data-active="true"]').waitFor({ timeout: 30_000 });
  });
});
