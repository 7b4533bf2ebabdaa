import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openSession, putSettings, startEditorStack, startFakeSession, waitForLspState } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Opening a file starts its language server while the file's content is still on its way: the
 * language is known from the name, so the lease opens and `initialize` goes out before the content
 * arrives, and `didOpen` follows the content. The fake server stands in (only the order matters).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const isFileRoute = (url: URL) => url.pathname.endsWith('/file');

describe.runIf(run)('a file being opened connects its server before its content arrives (fake server)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    const session = await startFakeSession(stack, {
      binary: 'kotlin-lsp',
      script: { capabilities: { textDocumentSync: 1 } },
      files: { 'src/Main.kt': 'fun main() {}\n' },
    });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, session.sessionId);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('sends initialize while the content is held, and didOpen after it', async () => {
    const order: string[] = [];
    let sawInitialize!: () => void;
    const initialized = new Promise<void>((resolve) => (sawInitialize = resolve));
    let sawDidOpen!: () => void;
    const opened = new Promise<void>((resolve) => (sawDidOpen = resolve));
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        // A frame may carry more than one message: look for each method named in it.
        const text = String(f.payload);
        for (const method of ['initialize', 'textDocument/didOpen'])
          if (text.includes(`"method":"${method}"`)) {
            order.push(method);
            if (method === 'initialize') sawInitialize();
            else sawDidOpen();
          }
      }),
    );
    // The content is held until the page asked its server to initialize. The old order (connect
    // once the content is there) never asks while it is held, so a bound releases it and the
    // recorded order shows the content first.
    let released = false;
    await page.route(isFileRoute, async (route) => {
      if (route.request().method() !== 'GET' || released) return route.fallback();
      await Promise.race([initialized, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      released = true;
      order.push('content');
      return route.fallback();
    });
    await openFile(page, 'src/Main.kt');
    await waitForLspState(page, 'kotlin', 'ready');
    // The editor has the document now; its didOpen goes out once the connection is ready.
    await opened;
    await page.unroute(isFileRoute);
    expect(order).toEqual(['initialize', 'content', 'textDocument/didOpen']);
  }, 120_000);
});
