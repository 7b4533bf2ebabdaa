import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_COOKIE } from '@kandev/protocol';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessCookies, TEST_ACCESS_TOKEN } from '../support/access.js';
import { launchChromium, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/** A browser that never opened the start link: no access cookie (unlike support's newContext). */
function freshContext(browser: Browser, options: { locale?: string; colorScheme?: 'light' | 'dark'; phone?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: options.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    isMobile: options.phone ?? false,
    hasTouch: options.phone ?? false,
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
  });
}

describe.runIf(run)('the access token in Chromium', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let sessionId: string;

  beforeAll(async () => {
    ensureBuilt('web-test');
    stack = await startStack();
    const task = await stack.createTask({ title: 'Access', workspace: copyDemoWorkspace() });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const sessionView = (id: string) => `[data-testid="session-view"][data-session-id="${id}"]`;

  it('the start link signs the browser in: HttpOnly Strict cookie, token gone from the address bar, the app and its LSP work, a reload too', async () => {
    const context = await freshContext(browser.browser);
    const page = await context.newPage();
    await page.goto(`${stack.url}/?token=${TEST_ACCESS_TOKEN}#/sessions/${sessionId}`);
    await page.locator(sessionView(sessionId)).waitFor();
    // The redirect dropped the token and kept the app's hash route.
    expect(page.url()).toBe(`${stack.url}/#/sessions/${sessionId}`);
    const cookies = await context.cookies(stack.url);
    expect(cookies).toEqual([expect.objectContaining({ name: ACCESS_COOKIE, value: TEST_ACCESS_TOKEN, httpOnly: true, sameSite: 'Strict', path: '/' })]);
    // Scripts on the page cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain(TEST_ACCESS_TOKEN);
    // The LSP upgrade carries the cookie: the editor reaches a live server.
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');

    await page.reload();
    await page.locator(sessionView(sessionId)).waitFor();
    expect(page.url()).not.toContain('token=');
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await context.close();
  });

  it('without the cookie, with an expired or a wrong one, or with a wrong link, the page says how to get the link', async () => {
    const heading = 'Kandev needs its access link';
    const none = await freshContext(browser.browser);
    const page = await none.newPage();
    const response = await page.goto(`${stack.url}/#/sessions/${sessionId}`);
    expect(response?.status()).toBe(401);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    expect(await page.locator('main').innerText()).toContain('npm start');
    expect(await page.locator(sessionView(sessionId)).count()).toBe(0);

    // A wrong link sets nothing and shows the same page.
    await page.goto(`${stack.url}/?token=not-the-token-0123456789`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    expect(await none.cookies(stack.url)).toEqual([]);
    await none.close();

    // A cookie of an older token (the token file was replaced) is no longer good.
    const expired = await freshContext(browser.browser);
    await expired.addCookies(accessCookies('an-older-token-0123456789'));
    const stale = await expired.newPage();
    await stale.goto(`${stack.url}/`);
    await stale.getByRole('heading', { level: 1, name: heading }).waitFor();
    await expired.close();
  });

  it('shows the access page in the browser language, on a phone and in dark mode too', async () => {
    const shots = process.env.KANDEV_SCREENSHOT_DIR;
    if (shots) mkdirSync(shots, { recursive: true });
    const cases = [
      { locale: 'pt-PT', heading: 'O Kandev precisa da ligação de acesso', colorScheme: 'light' as const, phone: false },
      { locale: 'zh-CN', heading: 'Kandev 需要访问链接', colorScheme: 'dark' as const, phone: true },
      { locale: 'en-US', heading: 'Kandev needs its access link', colorScheme: 'dark' as const, phone: false },
    ];
    for (const c of cases) {
      const context = await freshContext(browser.browser, c);
      const page = await context.newPage();
      await page.goto(`${stack.url}/`);
      await page.getByRole('heading', { level: 1, name: c.heading }).waitFor();
      // Nothing overflows the phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (shots) await page.screenshot({ path: join(shots, `access-${c.locale}-${c.colorScheme}${c.phone ? '-phone' : ''}.png`), fullPage: true });
      await context.close();
    }
  });
});
