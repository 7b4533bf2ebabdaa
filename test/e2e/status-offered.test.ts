/**
 * Status details list what the attached server offers, from its initialize result and the
 * capabilities it registered since: pyright on the demo workspace (it registers pull diagnostics
 * dynamically, after initialized) and typescript-language-server. The list is what the language's
 * descriptor claims (the claims are measured against the same servers by
 * test/integration/capability-table.test.ts). Desktop popover and tablet drawer, light and dark,
 * axe-clean; localized (pt-pt). Screenshots in test-results/screens.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { languageDescriptor, type LanguageId } from '@kandev/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emulateScheme, expectTheme, screenshot, seriousAxeViolations } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { repoRoot } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openLspPanel, openSession, openSessionInLocale, startEditorStack, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const THIRD_PARTY = ['.monaco-editor'];

function claimed(language: LanguageId): string[] {
  const offers = languageDescriptor(language).offers;
  if (offers.kind !== 'measured') throw new Error(`${language} claims nothing`);
  return [...offers.features];
}

describe.runIf(run)('status details: what the attached server offers', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let sessionId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startEditorStack();
    const task = await stack.createTask({ title: 'What the servers offer', workspace: copyDemoWorkspace(), env: { GOFLAGS: '-mod=mod', GOPROXY: 'off' } });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  // Each test's window closes when it ends: its server lease detaches, and the next test's window
  // takes it over warm (a tab with no hint claims the detached lease) instead of starting pyright or
  // typescript-language-server again. The first window sees pyright register pull diagnostics
  // live; the later ones see the registration replayed, as a reopened tab does.
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function pageFor(viewport: Viewport, locale?: string): Promise<Page> {
    const context = await newContext(browser.browser, viewport, locale);
    contexts.push(context);
    return context.newPage();
  }

  const listed = (page: Page) => page.locator('[data-testid="lsp-offered"] li').evaluateAll((els) => els.map((el) => el.getAttribute('data-feature')));

  for (const viewport of ['desktop', 'tablet'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`${viewport} ${scheme}: pyright's features, its dynamic pull diagnostics included`, async () => {
        const page = await pageFor(viewport);
        await emulateScheme(page, scheme);
        await openSession(page, stack.url, sessionId);
        await expectTheme(page, scheme);
        await openFile(page, 'app/main.py');
        await waitForLspState(page, 'python', 'ready');
        await openLspPanel(page, 'python', viewport === 'tablet' ? 'tap' : 'click');
        // Registered after initialized: the list follows the registration, whenever it arrives.
        await page.locator('[data-testid="lsp-offered"] li[data-feature="diagnostic"]').waitFor();
        expect(await listed(page)).toEqual(claimed('python'));
        expect(await page.locator('[data-testid="lsp-offered"] li[data-feature="declaration"]').innerText()).toBe('Go to declaration');
        await screenshot(page, `status-offered-${viewport}-${scheme}`);
        const found = (await seriousAxeViolations(page, THIRD_PARTY)).map((v) => `${v.id} ${v.nodes.join(' | ')}`);
        expect(found).toEqual([]);
      });
    }
  }

  it('typescript-language-server, in Portuguese', async () => {
    const page = await pageFor('desktop', 'pt-PT');
    await openSessionInLocale(page, stack.url, sessionId, 'pt-pt');
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await openLspPanel(page, 'typescript');
    await page.locator('[data-testid="lsp-offered"] li').first().waitFor();
    expect(await listed(page)).toEqual(claimed('typescript'));
    const catalog = JSON.parse(readFileSync(join(repoRoot, 'apps/web/src/locales/pt-pt/lsp.json'), 'utf8')) as { offered: { feature: Record<string, string> } };
    const texts = await page.locator('[data-testid="lsp-offered"] li').allInnerTexts();
    expect(texts).toEqual(claimed('typescript').map((f) => catalog.offered.feature[f]));
    await screenshot(page, 'status-offered-desktop-pt-pt');
  });
});
