import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  lspStatesSeen,
  lspStatus,
  openFile,
  openSession,
  placeCaret,
  putSettings,
  recordLspStates,
  runEditorAction,
  startEditorStack,
  waitForLspState,
} from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';
import { metric } from './lease-support.js';

/**
 * C06 with the real typescript-language-server: the last editor closed for two minutes (page clock)
 * releases the lease; the file opened again at once gets a server again. The real server shuts
 * down quickly, so the release can end before or after the reopened document is registered; either
 * way the editor must not stay Off (it did, in two of three rounds, before the auto-start decided
 * again when a release ends).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('C06 the idle release with the real TypeScript server', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let sessionId: string;

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['typescript'] });
    const task = await stack.createTask({ title: 'Demo', workspace: copyDemoWorkspace() });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('C06 a file reopened right after the idle release gets a server again, and the server answers hover', async () => {
    const page = await (await newContext(browser.browser)).newPage();
    await recordLspStates(page);
    await page.clock.install();
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready', 120_000);
    await page.locator('[data-testid="editor-tab"][data-path="src/main.ts"] .tab-close').click();
    await page.clock.fastForward('02:05');
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready', 120_000);
    // The lease was released (not kept), and after Ready the editor left Ready and came back to it.
    expect(await metric(stack.url, 'kandev_lsp_leases_released_total{reason="editor_idle"}')).toBe(1);
    const states = await lspStatesSeen(page);
    const afterFirstReady = states.slice(states.indexOf('typescript:ready') + 1);
    expect(afterFirstReady.length).toBeGreaterThan(1);
    expect(afterFirstReady.at(-1)).toBe('typescript:ready');
    // The server, not Monaco's built-in TypeScript, answers: the status is Ready as the hover shows.
    await placeCaret(page, 'log(count)', 5);
    await runEditorAction(page, 'editor.action.showHover');
    await page.locator('.monaco-hover', { hasText: 'const count: number' }).waitFor({ timeout: 30_000 });
    expect(await lspStatus(page, 'typescript').getAttribute('data-state')).toBe('ready');
    await page.close();
  });
});
