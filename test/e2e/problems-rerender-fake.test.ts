import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Action, FakeScript } from '../fixtures/fake-lsp-server/script.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';

/**
 * A finding re-renders the Problems panel and the status bar's counts, not the session around
 * them (files tree, tabs, toolbar, editor): with a server that checks as you type, diagnostics
 * come with every keystroke, and re-rendering the whole session for each was a long task of up to
 * 0.2 s on a loaded machine right when the person waits for their first finding. The fake, as
 * `kotlin-lsp`, publishes one, two and then three findings for the file, a second apart, with
 * nothing else going on; the test build counts the session layout's renders.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const finding = (line: number) => ({
  range: { start: { line, character: 0 }, end: { line, character: 3 } },
  severity: 1,
  message: `finding on line ${line + 1}`,
});
const publish = (count: number): Action => ({
  notify: 'textDocument/publishDiagnostics',
  params: { uri: '$uri', version: '$version', diagnostics: Array.from({ length: count }, (_, i) => finding(i)) },
});
const script: FakeScript = {
  capabilities: { textDocumentSync: { openClose: true, change: 2 } },
  rules: { 'textDocument/didOpen': [publish(1), { delayMs: 1_500 }, publish(2), { delayMs: 1_500 }, publish(3)] },
};

const renders = (page: Page) =>
  page.evaluate(() => (window as unknown as { __kandev?: { renders?: Record<string, number> } }).__kandev?.renders?.['session-layout'] ?? 0);
const problemsTotal = (page: Page) => page.locator('[data-testid="problems-panel"]').getAttribute('data-total');

describe.runIf(run)('a finding re-renders Problems, not the session around it (fake kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ stack, browser, page } = await openFakeEditor({
      session: { binary: 'kotlin-lsp', script, files: { [MAIN]: 'package demo\n\nfun main() {}\n' } },
      file: MAIN,
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the second and third publications update Problems and the status bar; the session layout does not render again', async () => {
    await expect.poll(() => problemsTotal(page), { timeout: 30_000, interval: 20 }).toBe('1');
    const atFirst = await renders(page);
    expect(atFirst).toBeGreaterThan(0);
    await expect.poll(() => problemsTotal(page), { timeout: 30_000, interval: 20 }).toBe('2');
    await expect.poll(() => problemsTotal(page), { timeout: 30_000, interval: 20 }).toBe('3');
    expect(await page.locator('[data-testid="problem-row"]').count()).toBe(3);
    expect(await page.locator('[data-testid="status-bar-problems"]').innerText()).toContain('3');
    expect(await renders(page)).toBe(atFirst);
    // The count is live: what the layout does depend on (the panel opening) renders it.
    await page.locator('[data-testid="status-bar-problems"]').click();
    await expect.poll(() => renders(page)).toBeGreaterThan(atFirst);
  });
});
