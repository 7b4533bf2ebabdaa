import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { accessCookies } from './access.js';
import { chromiumPath } from './env.js';

export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** The flags this closed network needs. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the run's shared Chromium listens (set by the suites' global setup, chromiumServer.ts). */
export const chromiumEndpointEnv = 'KANDEV_TEST_CHROMIUM_WS';

/**
 * Debian's Chromium, headless. In a test run this is a connection to the run's one Chromium
 * (chromiumServer.ts): everything a file opens lives in its own browser contexts, which close()
 * drops with the connection, so no cookie, storage or page crosses from one file to the next.
 * Outside such a run (a bench, a script) it launches its own: Playwright gives every launch a
 * fresh temporary profile (it refuses a --user-data-dir argument), and TMPDIR points it at a
 * folder this helper removes afterwards.
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const endpoint = process.env[chromiumEndpointEnv];
  if (endpoint) {
    const browser = await chromium.connect(endpoint);
    return { browser, close: () => browser.close().catch(() => undefined) };
  }
  const profile = mkdtempSync(join(tmpdir(), 'kandev-chromium-'));
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs, env: { ...process.env, TMPDIR: profile } });
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type Viewport = 'desktop' | 'tablet' | 'phone';

/**
 * Browser contexts for the three layouts: pointer precision follows the device. Each is signed in
 * to every test stack (the access cookie of the tests' fixed token), as a browser that opened the
 * start link once would be.
 */
export async function newContext(browser: Browser, viewport: Viewport = 'desktop', locale = 'en-US'): Promise<BrowserContext> {
  const context = await browser.newContext(contextOptions(viewport, locale));
  await context.addCookies(accessCookies());
  // A page with unsaved text asks before it is left; the tests reload such pages on purpose, as a
  // person who confirms would. Any other dialog is dismissed, as Playwright does by default.
  context.on('page', (page) => page.on('dialog', (dialog) => void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss())));
  return context;
}

function contextOptions(viewport: Viewport, locale: string) {
  if (viewport === 'desktop') return { viewport: { width: 1400, height: 900 }, locale };
  if (viewport === 'tablet') return { viewport: { width: 1024, height: 768 }, hasTouch: true, isMobile: true, locale };
  return { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale };
}
