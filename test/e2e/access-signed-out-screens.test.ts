/**
 * The signed-out state as people see it (the access revoked by deleting the token file and
 * restarting, as in access-revoke.test.ts): an editor page on a desktop and the read-only viewer on
 * a phone, both signed in with `src/main.ts` open when the sign-in ends. Once the signed-out notice
 * is shown, in light and dark: axe-core finds no serious or critical violation, the editor's icons
 * still have their font (Monaco's codicon font is loaded while the page is signed in; fetched
 * lazily, its request would be refused once the token is gone and every icon would be blank), and
 * the header no longer says the session is running nor offers Stop, which it cannot know or do
 * any more. Screenshots in test-results/screens/signed-out-*.png.
 */
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCESS_TOKEN_FILE } from '@kandev/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessCookies } from '../support/access.js';
import { emulateScheme, expectTheme, screenshot, seriousAxeViolations, settled } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openSession, runEditorAction, waitForLspState } from '../support/page.js';
import { demoSession, fileTokenEnv, freePort, tokenIn } from '../support/revoke.js';
import { startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const VIEWPORTS: Viewport[] = ['desktop', 'phone'];
const SCHEMES = ['light', 'dark'] as const;

/** The codicon font faces the page has and their load status ('loaded' once its file arrived). */
const codiconFaces = (page: Page) => page.evaluate(() => [...document.fonts].filter((f) => f.family.replaceAll('"', '') === 'codicon').map((f) => f.status));

describe.runIf(run)('the signed-out state: axe, icons and an honest header, on a desktop and a phone, light and dark', () => {
  const stacks: RunningStack[] = [];
  let home: string;
  let browser: LaunchedBrowser;
  const pages = new Map<Viewport, Page>();

  beforeAll(async () => {
    ensureBuilt('web-test');
    home = mkdtempSync(join(tmpdir(), 'kandev-signed-out-e2e-'));
    const env = fileTokenEnv(home, await freePort());
    const first = await startStack(env);
    stacks.push(first);
    const token = tokenIn(home);
    const sessionId = await demoSession(first, token);
    browser = await launchChromium();
    for (const viewport of VIEWPORTS) {
      const context = await newContext(browser.browser, viewport);
      await context.addCookies(accessCookies(token));
      const page = await context.newPage();
      await openSession(page, first.url, sessionId);
      await openFile(page, 'src/main.ts');
      if (viewport === 'desktop') await waitForLspState(page, 'typescript', 'ready');
      expect(await page.getByTestId('session-stop').count(), viewport).toBe(1);
      pages.set(viewport, page);
    }
    // Revoke: delete the file, restart on the same home and port (the pages' origin).
    unlinkSync(join(home, ACCESS_TOKEN_FILE));
    const exited = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGUSR2');
    await exited;
    stacks.push(await startStack(env));
    for (const page of pages.values()) await page.locator('[data-testid="signed-out"]').waitFor({ timeout: 120_000 });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    for (const stack of stacks) await stack.stop().catch(() => undefined);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('the header says the session state is unknown and offers no Stop once signed out', async () => {
    for (const [viewport, page] of pages) {
      expect(await page.getByTestId('session-stop').count(), viewport).toBe(0);
      expect(await page.getByTestId('session-state').getAttribute('data-state'), viewport).toBe('unknown');
    }
  });

  for (const viewport of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      it(`${viewport} ${scheme}: axe finds no serious or critical violation on the signed-out page`, async () => {
        const page = pages.get(viewport)!;
        await emulateScheme(page, scheme);
        await expectTheme(page, scheme);
        await settled(page);
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, `signed-out-${viewport}-${scheme}`);
      });
    }
  }

  // Last: once opened, Monaco keeps its find widget in the page (hidden), which the axe checks above are not about.
  it("the desktop editor's icons keep their font: a find widget opened after the sign-in ended draws them (the font was loaded while signed in)", async () => {
    const page = pages.get('desktop')!;
    // The find widget's buttons are codicon glyphs drawn now, after the sign-in ended.
    await runEditorAction(page, 'actions.find');
    await page.locator('.monaco-editor .find-widget.visible').waitFor();
    await settled(page);
    await screenshot(page, 'signed-out-desktop-find-widget');
    expect(await codiconFaces(page)).toEqual(['loaded']);
  });
});
