/**
 * Revoking access from Chromium, with the real backend and typescript-language-server (Local PC):
 * the token lives in KANDEV_HOME/access-token (no KANDEV_TOKEN). Deleting that file and restarting
 * the backend (SIGUSR2, as `npm run restart` does) on the same home revokes the open page: at the
 * moment the refusal arrives it says its sign-in ended and how to sign in again, keeps the unsaved
 * text in its model, and opens no socket any more. Signing in again in the same browser brings the
 * same page back with its text. A tampered token file is replaced at start: the fresh token signs
 * in, the planted one is refused.
 */
import { chmodSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCESS_TOKEN_FILE, API_ROUTES } from '@kandev/protocol';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { accessCookies } from '../support/access.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { lspStatus, openFile, openSession, placeCaret, sessionModelText, waitForLspState } from '../support/page.js';
import { demoSession, fileTokenEnv, freePort, tokenIn } from '../support/revoke.js';
import { startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/** Every WebSocket the page opens and every sign-in check it asks, in the page (kept across reconnects). */
async function recordConnections(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as any;
    w.__sockets = [] as string[];
    w.__accessChecks = 0;
    w.__pageLoads = (w.__pageLoads ?? 0) + 1;
    const Native = WebSocket;
    w.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        w.__sockets.push(String(url));
      }
    };
    const nativeFetch = window.fetch.bind(window);
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).includes('/api/access')) w.__accessChecks++;
      return nativeFetch(input, init);
    };
  });
}

const socketsOpened = (page: Page) => page.evaluate(() => ((window as any).__sockets as string[]).length);
const accessChecks = (page: Page) => page.evaluate(() => (window as any).__accessChecks as number);

describe.runIf(run)('revoking access by deleting the token file, in Chromium', () => {
  const homes: string[] = [];
  const stacks: RunningStack[] = [];
  let browser: LaunchedBrowser | undefined;

  afterAll(async () => {
    await browser?.close();
    for (const stack of stacks) await stack.stop().catch(() => undefined);
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it('deleting the token file and restarting: the open page says its sign-in ended and how to sign in again, keeps its unsaved text, stops reconnecting, and comes back after signing in', async () => {
    ensureBuilt('web-test');
    const home = mkdtempSync(join(tmpdir(), 'kandev-revoke-e2e-'));
    homes.push(home);
    const env = fileTokenEnv(home, await freePort());
    const first = await startStack(env);
    stacks.push(first);
    const oldToken = tokenIn(home);
    const sessionId = await demoSession(first, oldToken);

    browser = await launchChromium();
    const context = await newContext(browser.browser);
    await context.addCookies(accessCookies(oldToken));
    const page = await context.newPage();
    // The page's own clock, so the wait past the reconnect delays below runs their timers at once.
    await page.clock.install();
    await recordConnections(page);
    await openSession(page, first.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await placeCaret(page, 'log(count)');
    // No character that asks the server for on-type formatting (newline, `;`, `}`): the text stays as typed.
    const unsaved = '/* typed, never saved */ ';
    await page.keyboard.type(unsaved);
    const edited = await sessionModelText(page, sessionId, 'src/main.ts');
    expect(edited).toContain(unsaved);
    expect(await page.locator('[data-testid="signed-out"]').count()).toBe(0);

    // Revoke: delete the file, restart on the same home (and port: the page's origin).
    unlinkSync(join(home, ACCESS_TOKEN_FILE));
    const exited = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGUSR2');
    await exited;
    const second = await startStack(env);
    stacks.push(second);
    const newToken = tokenIn(home);
    expect(newToken).not.toBe(oldToken);

    // The moment the refusal arrives: one message, the text still in the model, no reload.
    const banner = page.locator('[data-testid="signed-out"]');
    await banner.waitFor({ timeout: 120_000 });
    const atRefusal = { sockets: await socketsOpened(page), checks: await accessChecks(page) };
    expect(await sessionModelText(page, sessionId, 'src/main.ts')).toBe(edited);
    expect(await banner.innerText()).toContain('Your sign-in to Kandev ended');
    expect(await banner.innerText()).toContain('/?token=');
    expect(await banner.innerText()).toContain('KANDEV_HOME');
    expect(await banner.getAttribute('role')).toBe('alert');
    expect(await page.locator('[data-testid="signed-out"]').count()).toBe(1);
    expect(await lspStatus(page, 'typescript').getAttribute('data-state')).toBe('unavailable');
    expect(await page.evaluate(() => (window as any).__pageLoads)).toBe(1);

    // Over a window longer than the longest reconnect delay (10 s for LSP, 30 s for the events
    // stream), on the page's clock, so every reconnect timer due in it fires: nothing opened,
    // nothing asked.
    await page.clock.runFor(32_000);
    expect(await socketsOpened(page)).toBe(atRefusal.sockets);
    expect(await accessChecks(page)).toBe(atRefusal.checks);
    expect(await sessionModelText(page, sessionId, 'src/main.ts')).toBe(edited);

    // "Check again" before signing in: still signed out, still no socket.
    await page.locator('[data-testid="signed-out-recheck"]').click();
    await page.locator('[data-testid="signed-out-still"]').waitFor();
    expect(await socketsOpened(page)).toBe(atRefusal.sockets);

    // Sign in again as the message says (the new link in another tab of this browser), then Check again.
    const other = await context.newPage();
    const signIn = await other.goto(`${second.url}/?token=${newToken}`);
    expect(signIn?.status()).toBe(200);
    await other.close();
    await page.locator('[data-testid="signed-out-recheck"]').click();
    await banner.waitFor({ state: 'detached' });
    await waitForLspState(page, 'typescript', 'ready', 120_000);
    expect(await sessionModelText(page, sessionId, 'src/main.ts')).toBe(edited);
    expect(await page.evaluate(() => (window as any).__pageLoads)).toBe(1);
  });

  it('a tampered token file is replaced at start: the planted token is refused, the fresh one signs in', async () => {
    ensureBuilt('web-test');
    const home = mkdtempSync(join(tmpdir(), 'kandev-tampered-e2e-'));
    homes.push(home);
    // A well-formed token others could read: it may be known, so it proves nothing any more.
    const planted = 'planted-token-readable-by-others-0123';
    writeFileSync(join(home, ACCESS_TOKEN_FILE), `${planted}\n`, { mode: 0o600 });
    chmodSync(join(home, ACCESS_TOKEN_FILE), 0o644);
    const stack = await startStack(fileTokenEnv(home, await freePort()));
    stacks.push(stack);
    const fresh = tokenIn(home);
    expect(fresh).not.toBe(planted);

    browser ??= await launchChromium();
    const plantedContext = await browser.browser.newContext();
    await plantedContext.addCookies(accessCookies(planted));
    const refused = await plantedContext.newPage();
    const load = await refused.goto(`${stack.url}/`);
    expect(load?.status()).toBe(401);
    expect(await refused.locator('body').innerText()).toContain('access-token');
    expect((await fetch(`${stack.url}${API_ROUTES.access}`, { headers: { authorization: `Bearer ${planted}` } })).status).toBe(401);
    expect((await fetch(`${stack.url}${API_ROUTES.access}`, { headers: { authorization: `Bearer ${fresh}` } })).status).toBe(200);
    await plantedContext.close();

    const sessionId = await demoSession(stack, fresh);
    const context = await browser.browser.newContext();
    const page = await context.newPage();
    const signIn = await page.goto(`${stack.url}/?token=${fresh}#/sessions/${sessionId}`);
    expect(signIn?.status()).toBe(200);
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    expect(await page.locator('[data-testid="signed-out"]').count()).toBe(0);
    await context.close();
  });
});
